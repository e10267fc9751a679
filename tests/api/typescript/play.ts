// One whole match of each game, played by a client typed from the server's own document
// (openapi-typescript's schema.d.ts, generated beside this file by test_typescript_client.py)
// through openapi-fetch. Everything game-specific is reached by narrowing the generated types:
// a view by its `game` to that game's view (its state, legal actions and result), an action by
// its `type` to that move, a result to the game's breakdown. tsc --strict refuses this file if
// the document stops giving a generator what narrowing needs; it has no casts and no `any`.
//
//     node play.js <server URL>    prints one line per game, exits non-zero on any failure

import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type View = Schemas["View"];
type Created = Schemas["Created"];
type Action = Schemas["ActionRequest"]["action"];
type DigView = Schemas["ViewOfDig"];
type DigItUpView = Schemas["ViewOfDigItUp"];
type DinosView = Schemas["ViewOfDinos"];

const baseUrl = process.argv[2];
if (baseUrl === undefined) {
  throw new Error("usage: node play.js <server URL>");
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) {
    throw new Error(message);
  }
}

/** A small seeded generator (xorshift32): the same choices on every run. */
class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed || 1;
  }

  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 2 ** 32;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    check(item !== undefined, "nothing to pick from");
    return item;
  }
}

function fail(view: View, what: string): never {
  throw new Error(`${view.game} (version ${view.version}): ${what}`);
}

// --- choosing an action, from a view narrowed to its game ----------------------------------

/** Dig It Up: the first legal action, but a `dig` (unlike DIG's, it names a site) is checked. */
function chooseDigItUp(view: DigItUpView): Action {
  for (const action of view.legal_actions) {
    if (action.type === "dig") {
      // Dig It Up's dig: a site letter, A to J
      check(/^[A-J]$/.test(action.site), `a dig at ${action.site}`);
    }
  }
  const first = view.legal_actions[0];
  check(first !== undefined, "no legal action");
  return first;
}

/** DIG: carry one bone at a time to the bowl of its colour (a random walk takes over a thousand
 * actions, this a few hundred): every choice reads the DIG state and DIG's moves. */
function chooseDig(view: DigView, rng: Rng): Action {
  const state = view.state;
  check(state !== null, "a DIG match being played shows its state");
  const moves: Schemas["DigMoveAction"][] = [];
  const drops: Schemas["DigDropAction"][] = [];
  const putBacks: Schemas["DigPutBackAction"][] = [];
  let dig: Schemas["DigDigAction"] | undefined;
  let keep: Schemas["DigKeepAction"] | undefined;
  let endTurn: Schemas["DigEndTurnAction"] | undefined;
  for (const action of view.legal_actions) {
    switch (action.type) {
      case "move":
        moves.push(action);
        break;
      case "drop":
        drops.push(action);
        break;
      case "put_back":
        putBacks.push(action);
        break;
      case "dig":
        dig = action;
        break;
      case "keep":
        keep = action;
        break;
      case "end_turn":
        endTurn = action;
        break;
      case "undo":
        break;
    }
  }
  const hand = state.hand ?? [];
  const bones = new Set(hand.map((card) => card.bone));
  const mostCards = drops.reduce<Schemas["DigDropAction"] | undefined>(
    (best, drop) => (best === undefined || drop.cards.length > best.cards.length ? drop : best),
    undefined,
  );
  if (mostCards !== undefined) {
    return mostCards;
  }
  const lastPutBack = putBacks[putBacks.length - 1];
  if (lastPutBack !== undefined && (keep === undefined || hand.length > 1)) {
    return lastPutBack;
  }
  if (keep !== undefined) {
    return keep;
  }
  const worth = (move: Schemas["DigMoveAction"]): number => {
    const card = state.yard[move.to - 1];
    if (card === undefined || card === null) {
      return -1;
    }
    if (card.kind === "bowl") {
      return card.colour !== undefined && bones.has(card.colour) ? 3 : -1;
    }
    return bones.size > 0 ? -1 : 1;
  };
  const best = Math.max(-1, ...moves.map(worth));
  if (best === 3 || (best > 0 && (dig === undefined || bones.size > 0))) {
    return rng.pick(moves.filter((move) => worth(move) === best));
  }
  if (dig !== undefined && bones.size === 0) {
    return dig;
  }
  if (moves.length > 0 && rng.next() < 0.5) {
    return rng.pick(moves);
  }
  if (endTurn !== undefined) {
    return endTurn;
  }
  const first = view.legal_actions[0];
  check(first !== undefined, "no legal action");
  return first;
}

/** Digging for Dinos: the first legal action; a `move` (unlike DIG's, it names a token and a
 * direction) is checked. */
function chooseDinos(view: DinosView): Action {
  const state = view.state;
  check(state !== null, "a Digging for Dinos match being played shows its state");
  for (const action of view.legal_actions) {
    if (action.type === "move") {
      check(action.token === 0 || action.token === 1, `a move of token ${action.token}`);
      check(action.direction.length <= 2, `a move ${action.direction}`);
    }
  }
  const first = view.legal_actions[0];
  check(first !== undefined, "no legal action");
  return first;
}

function choose(view: View, rng: Rng): Action {
  switch (view.game) {
    case "dig-it-up":
      return chooseDigItUp(view);
    case "dig":
      return chooseDig(view, rng);
    case "digging-for-dinos":
      return chooseDinos(view);
  }
}

// --- the end: each game's result, by its breakdown -------------------------------------------

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Each player's total is the sum of the game's own breakdown of it. */
function checkResult(view: View, names: string[]): void {
  let totals: number[];
  let breakdowns: number[];
  if (view.game === "dig") {
    const result = view.result;
    check(result !== null, "a finished DIG match has a result");
    totals = result.players.map((player) => player.total);
    breakdowns = result.players.map(({ breakdown: b }) =>
      b.green.points + b.yellow.points + b.purple.points + b.blue.points + b.red.points);
    check(result.players.every(({ breakdown: b }) => b.red.points === b.red.bones * b.red.value),
      "a colour's points are its bones times its value");
  } else if (view.game === "dig-it-up") {
    const result = view.result;
    check(result !== null, "a finished Dig It Up match has a result");
    totals = result.players.map((player) => player.total);
    breakdowns = result.players.map(({ breakdown: b }) =>
      b.mission + b.cards + b.tokens + b.bundles + sum(Object.values(b.sets)));
  } else {
    const result = view.result;
    check(result !== null, "a finished Digging for Dinos match has a result");
    totals = result.players.map((player) => player.total);
    breakdowns = result.players.map(({ breakdown: b }) =>
      b.loose + sum(b.completed.map((dinosaur) => dinosaur.value)));
  }
  check(JSON.stringify(totals) === JSON.stringify(breakdowns),
    `${view.game}: totals ${totals} are not their breakdowns' ${breakdowns}`);
  const result = view.result;
  check(result !== null, "a finished match has a result");
  check(JSON.stringify(result.players.map((player) => player.name)) === JSON.stringify(names),
    `${view.game}: the result's players are not the table's`);
  check(result.winners.length > 0 && result.winners.every((name) => names.includes(name)),
    `${view.game}: the winners ${result.winners} are not players`);
  check(Math.min(...result.players.map((player) => player.rank)) === 1,
    `${view.game}: nobody ranks first`);
}

// --- a whole match ---------------------------------------------------------------------------

const host = createClient<paths>({ baseUrl });

async function open(game: View["game"], names: string[], seed: number): Promise<Created> {
  // `you`: the creator sits in seat 0, so the answer's view is that seat's
  const common = { players: names, seed, listed: false, clock: null, you: 0 };
  // Each game has its own operation, whose body's `variant` is one of that game's.
  const answer = game === "dig-it-up"
    ? await host.POST("/api/v1/games/dig-it-up/matches",
      { body: { ...common, variant: "small" } })
    : game === "dig"
      ? await host.POST("/api/v1/games/dig/matches", { body: { ...common, variant: "standard" } })
      : await host.POST("/api/v1/games/digging-for-dinos/matches",
        { body: { ...common, variant: "standard" } });
  check(answer.data !== undefined, `${game}: ${JSON.stringify(answer.error)}`);
  return answer.data;
}

async function play(game: View["game"], names: string[], seed: number, most: number):
  Promise<string> {
  const created = await open(game, names, seed);
  check(created.game === game && created.view.game === game, `${game}: another game was opened`);
  check(created.view.you === 0, `${game}: the creation answer is not seat 0's view`);
  const seats = new Map<number, Client<paths>>();
  for (const seat of created.seats) {
    seats.set(seat.seat, createClient<paths>({
      baseUrl, headers: { Authorization: `Bearer ${seat.token}` },
    }));
  }
  check(seats.size === names.length, `${game}: a token for every seat`);
  const path = { params: { path: { match_id: created.id } } };
  const rng = new Rng(seed);
  let view: View = created.view;
  let actions = 0;
  while (view.status !== "finished") {
    check(actions < most, `${game}: no end after ${actions} actions`);
    const seat = view.to_act[0];
    check(seat !== undefined, `${game}: nobody to act in a match being played`);
    const client = seats.get(seat);
    check(client !== undefined, `${game}: no token for seat ${seat}`);
    if (view.you !== seat) {
      const looked = await client.GET("/api/v1/matches/{match_id}", path);
      check(looked.data !== undefined, `${game}: ${JSON.stringify(looked.error)}`);
      view = looked.data;
      check(view.you === seat, `${game}: seat ${seat}'s token shows seat ${view.you}`);
    }
    check(view.legal_actions.length > 0, `${game}: seat ${seat} to act has no legal action`);
    const acted = await client.POST("/api/v1/matches/{match_id}/actions", {
      ...path, body: { action: choose(view, rng), version: view.version },
    });
    if (acted.data === undefined) {
      fail(view, JSON.stringify(acted.error));
    }
    view = acted.data;
    actions += 1;
  }
  check(view.to_act.length === 0 && view.legal_actions.length === 0,
    `${game}: a finished match offers nothing`);
  check(view.seed_text === String(seed), `${game}: the seed shown is ${view.seed_text}`);
  checkResult(view, names);

  const first = seats.get(0);
  check(first !== undefined, `${game}: seat 0 has a token`);
  const log = await first.GET("/api/v1/matches/{match_id}/log", {
    params: { path: { match_id: created.id }, query: { limit: 1000 } },
  });
  check(log.data !== undefined, `${game}: ${JSON.stringify(log.error)}`);
  check(log.data.log.length === Math.min(actions, 1000),
    `${game}: ${log.data.log.length} log entries for ${actions} actions`);
  for (const entry of log.data.log) {
    check(entry.events.every((event) => event.type.length > 0), `${game}: an untyped event`);
    if (entry.action.type === "drop" && entry.seat !== 0) {
      // another seat's drop, as seat 0 may know it: which cards of that hand is not shown
      check(entry.action.cards === undefined, `${game}: another seat's drop shows its cards`);
    }
  }
  // Narrowed by its `game`, the log's actions are that game's: a Dig It Up `dig` names its site
  // (DIG's `dig` has no fields), a Dinos `move` its token.
  const page = log.data;
  check(page.game === game, `${game}: the log is of ${page.game}`);
  if (page.game === "dig-it-up") {
    const sites = page.log.flatMap((entry) => entry.action.type === "dig" ? [entry.action.site] : []);
    check(sites.length > 0 && sites.every((site) => "ABCDEFGHIJ".includes(site)),
      `${game}: the digs name no site`);
  } else if (page.game === "digging-for-dinos") {
    const tokens = page.log.flatMap((entry) => entry.action.type === "move" ? [entry.action.token] : []);
    check(tokens.every((token) => token === 0 || token === 1), `${game}: a move of no token`);
  }
  return `${game}: ${actions} actions, ${log.data.log.length} log entries, winners ` +
    `${view.result === null ? "none" : view.result.winners.join(" and ")}`;
}

const MATCHES: [View["game"], string[], number, number][] = [
  ["dig-it-up", ["Ann", "Bob"], 11, 200],
  ["dig", ["Ann", "Bob"], 3, 2000],
  ["digging-for-dinos", ["Ann", "Bob"], 5, 400],
];

for (const [game, names, seed, most] of MATCHES) {
  console.log(await play(game, names, seed, most));
}
