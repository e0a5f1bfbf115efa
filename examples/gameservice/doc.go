// Command gameservice is the leaderboards of a game as a service builds
// them, run against the server REDIS_URL names:
//
//   - one match result updates the all-time board (best kept), this week's
//     board (points added up) and the player's regional board (best kept)
//     in one atomic call, the player's name stored once beside them;
//
//   - the top 10 with names, the players around one, a player among his
//     friends;
//
//   - last week's final standings, archived once however many instances
//     ask at the same time;
//
//   - a cheater removed from every board, and his name, in one atomic call.
//
//     go run ./examples/gameservice
package main
