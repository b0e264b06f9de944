#!/usr/bin/env node
// A random strategy for any simcli game, speaking the strategy protocol (docs/protocol.md)
// on stdin/stdout. Run it from a config:
//
//   strategies:
//     - random
//     - {name: jsbot, use: "cmd:node ../examples/random_bot.js"}
//
// It answers a move's index, so it never needs to understand the game's notation.
"use strict";
const readline = require("readline");

// A small seeded generator (mulberry32), seeded per game from the 'start' message, so the
// bot plays the same moves for the same config and seed.
function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rngs = new Map(); // seat -> generator of the current game
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "ready", protocol: 1, name: "random_bot.js", wants_view: false });
      break;
    case "start":
      rngs.set(message.seat, mulberry32(message.seed % 4294967296));
      break;
    case "choose": {
      const random = rngs.get(message.seat);
      send({ type: "move", index: Math.floor(random() * message.legal.length) });
      break;
    }
    case "end":
      rngs.delete(message.seat);
      break;
    case "quit":
      process.exit(0);
  }
});
