// Command tournament is a daily cup as a game's backend runs it, against
// the server REDIS_URL names:
//
//   - the cup's rules are stored with its boards: it runs until an end,
//     players must join, at most four of them, three scored runs each a
//     day (a new board each day, kept for a week);
//
//   - each rule refuses inside the write, atomically, with its own error,
//     which the service maps to its answer to the player;
//
//   - the standings, and how many runs a player has left today.
//
//     go run ./examples/tournament
package main
