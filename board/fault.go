package board

// faultPoint, when set (by tests only), runs at every step boundary of the
// long operations, named by the operation and the step just done:
//
//	Migrate  begin, copy (each step), check, switch
//	Reshard  begin, export, copy (each step), drain, freeze, check,
//	         switch, retire
//	Archive  claim, copy (each step), done
//
// The fault tests run an operation in a child process that kills itself
// (SIGKILL) at a chosen step, then finish it from another process.
var faultPoint func(op, step string)

// atStep reports a step boundary to faultPoint.
func atStep(op, step string) {
	if faultPoint != nil {
		faultPoint(op, step)
	}
}
