package observe

import "testing"

func TestFieldsString(t *testing.T) {
	for f, want := range map[Fields]string{
		0:                            "0",
		HasRank:                      "HasRank",
		HasRank | HasChanged:         "HasRank|HasChanged",
		HasAttempts:                  "HasAttempts",
		HasAllowed | HasCount | 0x80: "HasCount|HasAllowed|Fields(0x80)",
	} {
		if got := f.String(); got != want {
			t.Errorf("Fields(%#x).String() = %q, want %q", uint8(f), got, want)
		}
	}
}

func TestFullName(t *testing.T) {
	if got := (Op{Package: "board", Name: "Group.Submit"}).FullName(); got != "board.Group.Submit" {
		t.Errorf("FullName = %q, want board.Group.Submit", got)
	}
}
