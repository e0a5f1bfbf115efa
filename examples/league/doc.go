// Command league is a weekly league as a game's backend runs it, against
// the server REDIS_URL names:
//
//   - three tiers, Bronze, Silver and Gold; each week a player's first
//     result places it in a cohort of 5 of its tier, in the same atomic
//     step as the result;
//
//   - the player's cohort with its ranks, one call;
//
//   - at the week's end, one call moves the best 2 of each cohort up a
//     tier and the worst 2 down, once however many instances call it;
//     next week places each player in its new tier.
//
//     go run ./examples/league
package main
