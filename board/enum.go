package board

import "fmt"

// enumName returns names[v], or "Type(v)" for a value with no name.
func enumName[T ~uint8](names []string, typ string, v T) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(v))
}
