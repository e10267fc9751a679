// Each game's board, drawn from a seat's view of the match (its `state`) and the game's box, never
// from a copy of the box kept here; what the seat may not know is not in its view, so it is not on
// the page either. A board makes tappable what the view's `legal_actions` offers: `offer.take(test)`
// hands it the first action still unplaced that passes `test` (null if none), and
// `offer.button(taken, attributes, ...children)` draws it as a button that plays that action (or,
// with no action, as plain content). Whatever a board does not place is offered as a labelled
// button under it. A place with a `data-spot` is flashed when a move changes it. Also here: every
// action and log event in words, for the buttons, the moves heard and the replay.
import { h } from "./dom.js";
import { item, minus, t } from "./i18n.js";

const ARROWS = { N: "↑", NE: "↗", E: "→", SE: "↘", S: "↓", SW: "↙", W: "←", NW: "↖" };
const nameOf = (view, seat) => view.players?.[seat]?.name ?? t("play.seatN", { n: seat + 1 });

const swatch = (colour) => h("span", { class: `dot c-${colour}`, "aria-hidden": "true" });
const colourWord = (colour) => item("colour", colour);
const scentWords = (scent) => scent.map(colourWord).join("/");
const scentOf = (scent) => h("span", { class: "scent" }, scent.map(swatch), h("span", { text: scentWords(scent) }));

// --- DIG ---------------------------------------------------------------------------------------

const dig = {
  label(action, view) {
    const hand = view.state?.hand || [];
    const card = (i) => (hand[i] ? `${scentWords(hand[i].scent)} (${t("play.dig.bone", { colour: colourWord(hand[i].bone) })})` : t("play.dig.aCard"));
    switch (action.type) {
      case "move": return action.to === 0 ? t("play.dig.toDoghouse") : t("play.dig.moveTo", { n: action.to });
      case "dig": return t("play.dig.dig");
      case "keep": return t("play.dig.keep");
      case "put_back": return action.card == null ? t("play.dig.putBackSome") : t("play.dig.putBack", { card: card(action.card) });
      case "drop": return action.cards ? t("play.dig.drop", { cards: action.cards.map(card).join(", ") }) : t("play.dig.dropSome");
      case "end_turn": return t("play.endTurn");
      default: return null;
    }
  },
  event(event, view) {
    const who = nameOf(view, event.seat);
    switch (event.type) {
      case "dug": return t("play.dig.dug", { who, n: event.position, scent: scentWords(event.scent || []) })
        + (event.bone ? ` (${t("play.dig.bone", { colour: colourWord(event.bone) })})` : "");
      case "put_back": return t("play.dig.putBackEvent", { who, n: event.position, scent: scentWords(event.scent || []) });
      case "dropped": return t("play.dig.dropped", { who, n: event.count, colour: colourWord(event.colour) });
      case "yard_reset": return t("play.dig.reset");
      default: return null;
    }
  },
  board(view, box, offer) {
    const { state } = view;
    const dogsAt = (position) => state.players.filter((p) => p.dog === position);
    const dogs = (position) => dogsAt(position).map((p) => h("span", { class: `dog s${p.seat}`, text: p.name }));
    const place = (position, content) => {
      const taken = offer.take((a) => a.type === "move" && a.to === position);
      return h("li", { class: "spot" }, offer.button(taken, { class: "cell", "data-spot": `yard-${position}`, hint: taken && dig.label(taken.action, view) },
        h("span", { class: "pos", text: String(position) }), content, dogs(position)));
    };
    const yard = state.yard.map((card, i) => {
      const position = i + 1;
      if (!card) return place(position, h("span", { class: "muted", text: t("play.dig.gap") }));
      if (card.kind === "bowl") {
        return place(position, h("span", { class: "bowl" }, swatch(card.colour), h("b", { text: t("play.dig.bowl", { colour: colourWord(card.colour) }) })));
      }
      const known = card.known_bone ? ` · ${t("play.dig.bone", { colour: colourWord(card.known_bone) })}` : "";
      return place(position, h("span", {}, scentOf(card.scent), known && h("span", { class: "known", text: known })));
    });
    const players = state.players.map((p) => {
      const mine = p.seat === view.you;
      // your own cards: tap one to put it back where you dug, when the view offers that
      const hand = mine ? (state.hand || []).map((c) => {
        const back = offer.take((a) => a.type === "put_back" && a.card === c.card);
        return h("li", {}, offer.button(back, { class: "card-in-hand", hint: back && dig.label(back.action, view) },
          scentOf(c.scent), ` → ${t("play.dig.bone", { colour: colourWord(c.bone) })}`));
      })
        : (p.hand_scents || []).map((scent) => h("li", {}, scentOf(scent)));
      const dropped = Object.entries(p.dropped || {}).filter(([, n]) => n).map(([colour, n]) => `${colourWord(colour)} ${n}`);
      return h("li", { class: "seat-state", "data-spot": `seat-${p.seat}` },
        h("b", { text: p.name }), ` · ${t("play.dig.dogAt", { n: p.dog })} · ${t("play.dig.inHand", { n: p.hand_size ?? hand.length })}`,
        hand.length ? h("ul", { class: "hand", "aria-label": t("play.handOf", { name: p.name }) }, hand) : null,
        h("p", { class: "muted", text: `${t("play.dig.droppedWord")}: ${dropped.join(", ") || t("none")}` }));
    });
    return [
      h("p", {}, `${t("play.dig.bowls")}: `, state.bowl_order.map((c, i) => h("span", { class: "chiplet" }, swatch(c), `${colourWord(c)} ${box.bowl_points?.[i] ?? ""}`))),
      view.to_act.includes(view.you) && h("p", { class: "muted", text: t("play.dig.actionsLeft", { n: state.actions_left }) }),
      h("ol", { class: "yard", "aria-label": t("play.dig.yard") }, place(0, h("span", { class: "house", text: t("play.dig.doghouse") })), yard),
      h("ul", { class: "seats-state" }, players),
    ];
  },
};

// --- Digging for Dinos -------------------------------------------------------------------------

const dinoName = (box, id) => item("dinosaur", id, box?.roster?.find((d) => d.id === id)?.name);
const sideWord = (side) => t(`play.dinos.${side}`);

const dinos = {
  label(action, view, box) {
    const token = view.state?.players?.[view.you]?.tokens?.[action.token];
    const who = token ? t("play.dinos.token", { side: sideWord(token.side) }) : t("play.dinos.aToken");
    switch (action.type) {
      case "place": return t("play.dinos.place", { row: action.row + 1, column: action.column + 1 });
      case "move": return t("play.dinos.move", { who, arrow: ARROWS[action.direction] || "", direction: t(`play.dir.${action.direction}`) });
      case "free_move": return t("play.dinos.freeMove", { who, row: action.row + 1, column: action.column + 1 });
      case "flip": return t("play.dinos.flip", { who });
      case "skip_flip": return t("play.dinos.skipFlip");
      default: return null;
    }
  },
  event(event, view, box) {
    const who = nameOf(view, event.seat);
    switch (event.type) {
      case "placed": return t("play.dinos.placed", { who, row: event.row + 1, column: event.column + 1 });
      case "moved": return t("play.dinos.moved", { who, arrow: ARROWS[event.direction] || "", row: event.to[0] + 1, column: event.to[1] + 1 });
      case "took": return t("play.dinos.took", { who, dinosaur: dinoName(box, event.dinosaur), n: event.position });
      case "refilled": return null;
      case "flipped": return t("play.dinos.flipped", { who });
      case "flip_skipped": return t("play.dinos.flipSkipped", { who });
      case "end_triggered": return t("play.dinos.endTriggered");
      default: return null;
    }
  },
  board(view, box, offer) {
    const { state } = view;
    const rows = state.grid.rows.map((row, r) => h("tr", {}, row.map((tile, c) => {
      const taken = offer.take((a) => (a.type === "place" || a.type === "free_move") && a.row === r && a.column === c);
      const where = t("play.dinos.at", { row: r + 1, column: c + 1 });
      const token = tile?.token;
      const what = tile ? `${dinoName(box, tile.dinosaur)} ${tile.position}` : t("play.dinos.empty");
      const owner = token && `${nameOf(view, token.seat)} (${sideWord(token.side)})`;
      return h("td", { class: [tile ? `era${tile.era}` : "void", token?.seat === view.you && "mine"].filter(Boolean).join(" ") }, offer.button(taken, {
        class: "cell", "data-spot": `grid-${r}-${c}`, title: [where, what, owner].filter(Boolean).join(" · "), hint: taken && `${where} · ${dinos.label(taken.action, view, box)}`,
      }, tile ? [h("span", { class: "dino", text: dinoName(box, tile.dinosaur) }), h("span", { class: "pos", text: `${tile.position} · ${t("play.dinos.era", { n: tile.era })}` })] : null,
      token && h("span", { class: `dog s${token.seat}`, text: `${nameOf(view, token.seat).slice(0, 3)} ${token.side === "diagonal" ? "✕" : "✚"}` })));
    })));
    // Each of the seat's paleontologists with the ways it may go, a compass to tap: the
    // directions are the box's, the ways open are the view's legal actions.
    const own = state.players.find((p) => p.seat === view.you);
    const compasses = (own?.tokens || []).map((token) => {
      const ways = new Map((box.tokens || []).flatMap((side) => side.directions).map((direction) =>
        [direction, offer.take((a) => a.type === "move" && a.token === token.id && a.direction === direction)]));
      if (![...ways.values()].some(Boolean)) return null;
      const name = t("play.dinos.token", { side: sideWord(token.side) });
      return h("div", { class: "compass", role: "group", "aria-label": name },
        ["NW", "N", "NE", "W", null, "E", "SW", "S", "SE"].map((direction) => (direction
          ? offer.button(ways.get(direction) || null, { class: "way", hint: ways.get(direction) && dinos.label(ways.get(direction).action, view, box) },
            h("span", { "aria-hidden": "true", text: ARROWS[direction] }))
          : h("span", { class: "way centre", text: `${name}${token.row == null ? "" : ` · ${t("play.dinos.at", { row: token.row + 1, column: token.column + 1 })}`}` }))));
    });
    const players = state.players.map((p) => h("li", { class: "seat-state", "data-spot": `seat-${p.seat}` },
      h("b", { text: p.name }), ` · ${t("play.dinos.tiles", { n: p.tiles })}`,
      h("p", { class: "muted", text: p.tokens.map((tk) => `${sideWord(tk.side)}${tk.row == null ? "" : ` ${t("play.dinos.at", { row: tk.row + 1, column: tk.column + 1 })}`}`).join(" · ") }),
      h("p", { text: Object.entries(p.collection || {}).map(([id, held]) => `${dinoName(box, id)} ${held.join(",")}`).join(" · ") || t("none") }),
      Object.keys(p.completed || {}).length ? h("p", { class: "good", text: `${t("play.dinos.completed")}: ${Object.entries(p.completed).map(([id, n]) => `${dinoName(box, id)}${n > 1 ? ` ×${n}` : ""}`).join(", ")}` }) : null));
    return [
      h("p", { class: "muted", text: [t("play.dinos.era", { n: state.era }), ...state.stacks.map((s) => t("play.dinos.stack", { era: s.era, n: s.tiles }))].join(" · ") }),
      h("table", { class: "dinogrid" }, h("caption", { class: "vh", text: t("play.dinos.grid") }), h("tbody", {}, rows)),
      compasses.some(Boolean) && h("div", { class: "compasses" }, compasses),
      h("ul", { class: "seats-state" }, players),
    ];
  },
};

// --- Dig It Up ---------------------------------------------------------------------------------

const tileName = (id) => item("tile", id);
const siteName = (view, id) => view.state?.sites?.find((s) => s.id === id)?.name || id;
const cardName = (box, id) => item("card", id, box?.cards?.find((c) => c.id === id)?.name);
const missionName = (box, id) => item("mission", id, box?.missions?.find((m) => m.id === id)?.name);

const digItUp = {
  label(action, view, box) {
    switch (action.type) {
      case "keep_mission": return action.mission ? t("play.diu.keepMission", { mission: missionName(box, action.mission) }) : t("play.diu.keepAMission");
      case "dig": return action.ancient_map ? t("play.diu.digMap", { site: siteName(view, action.site), n: action.ancient_map })
        : t("play.diu.dig", { site: siteName(view, action.site) });
      case "keep_roll": return t("play.diu.keepRoll");
      case "lucky_charm": return t("play.diu.luckyCharm");
      case "place_token": return t("play.diu.placeToken", { site: siteName(view, action.site), n: action.space });
      case "steal": return t("play.diu.steal", { name: nameOf(view, action.victim) });
      case "landslide": return t("play.diu.landslide", { site: siteName(view, action.site) });
      default: return null;
    }
  },
  event(event, view, box) {
    const who = nameOf(view, event.seat);
    switch (event.type) {
      case "dig": return t("play.diu.rolled", { who, site: siteName(view, event.site), n: event.roll });
      case "reroll": return t("play.diu.rerolled", { who, n: event.roll });
      case "took": return t("play.diu.took", { who, tile: event.tile ? tileName(event.tile) : "–" });
      case "card": return t("play.diu.drew", { who, card: cardName(box, event.card) });
      case "abandoned": return t("play.diu.abandoned", { site: siteName(view, event.site) });
      case "mission_kept": return t("play.diu.missionKept", { who });
      case "token_placed": return t("play.diu.tokenPlaced", { who, site: siteName(view, event.site), n: event.space, value: minus(event.value) });
      case "stole": return t("play.diu.stole", { who, name: nameOf(view, event.victim) });
      case "turn": return null;
      default: return null;
    }
  },
  board(view, box, offer) {
    const { state } = view;
    const you = state.players.find((p) => p.seat === view.you);
    const missions = (state.offered_missions || []).map((m) => {
      const taken = offer.take((a) => a.type === "keep_mission" && a.mission === m.id);
      return h("li", {}, offer.button(taken, { class: "mission", hint: taken && digItUp.label(taken.action, view, box) },
        h("b", { text: `${missionName(box, m.id)} · ${m.bonus} ${box.currency || ""}` }), h("span", { class: "muted", text: item("condition", m.id, m.condition) })));
    });
    const sites = state.sites.map((site) => {
      const taken = offer.take((a) => (a.type === "dig" && a.site === site.id && !a.ancient_map) || (a.type === "landslide" && a.site === site.id));
      const head = `${site.name} (${site.id}) · ${t("play.diu.pickaxes", { n: site.pickax })}${site.abandoned ? ` · ${t("play.diu.closed")}` : ""}`;
      const spaces = site.spaces.map((s) => {
        const here = offer.take((a) => a.type === "place_token" && a.site === site.id && a.space === s.space);
        const text = s.tile ? tileName(s.tile) : "–";
        const mark = s.mark ? (s.mark === "star" ? "★" : "+2") : "";
        const token = s.token != null ? ` ${minus(typeof s.token === "object" ? s.token.value ?? 0 : s.token)}₩` : "";
        return h("li", {}, offer.button(here, { class: "space", "data-spot": `site-${site.id}-${s.space}`, hint: here && digItUp.label(here.action, view, box) },
          h("span", { class: "pos", text: String(s.space) }), h("span", { text: text }), mark && h("span", { class: "mark", text: mark }), token && h("span", { class: "mark", text: token })));
      });
      return h("li", { class: `site${site.abandoned ? " closed" : ""}` },
        offer.button(taken, { class: "site-head", hint: taken && digItUp.label(taken.action, view, box) }, h("span", { text: head })),
        h("ol", { class: "spaces" }, spaces));
    });
    const roll = state.last_roll;
    const turn = state.turn;
    const players = state.players.map((p) => {
      const tiles = Object.entries(p.tiles || {}).filter(([, n]) => n).map(([id, n]) => `${tileName(id)} ${n}`);
      const cards = (p.cards || []).map((c) => cardName(box, c.id ?? c));
      const mission = p.mission ? `${t("play.diu.mission")}: ${missionName(box, p.mission.id)}` : p.mission_kept ? t("play.diu.missionHidden") : "";
      return h("li", { class: "seat-state", "data-spot": `seat-${p.seat}` },
        h("b", { text: p.name }), ` · ${p.money ?? 0} ${box.currency || ""}`,
        h("p", { text: tiles.join(" · ") || t("play.diu.noTiles") }),
        cards.length ? h("p", { class: "muted", text: `${t("play.diu.cards")}: ${cards.join(", ")}` }) : null,
        mission && h("p", { class: "muted", text: mission }));
    });
    return [
      missions.length > 0 && h("section", { "aria-label": t("play.diu.missions") }, h("h3", { text: t("play.diu.missions") }), h("ul", { class: "missions" }, missions)),
      h("p", { class: "die", text: [
        roll && t("play.diu.lastRoll", { who: nameOf(view, roll.seat), n: roll.roll, site: siteName(view, roll.site) }),
        turn && turn.roll != null && t("play.diu.roll", { n: turn.roll }),
        t("play.diu.deck", { n: state.deck_size }),
        t("play.diu.closedSites", { n: (state.abandoned || []).length, most: state.abandon_limit }),
      ].filter(Boolean).join(" · ") }),
      h("ol", { class: "sites", "aria-label": t("play.diu.sites") }, sites),
      h("ul", { class: "seats-state" }, players),
    ];
  },
};

const GAMES = { dig, "digging-for-dinos": dinos, "dig-it-up": digItUp };

const fieldWords = (action) => Object.entries(action).filter(([k]) => k !== "type")
  .map(([k, v]) => `${k.replaceAll("_", " ")} ${Array.isArray(v) ? v.join(",") : v}`).join(", ");

/** An action in words, for its button and the moves heard. */
export function describeAction(action, view, box) {
  if (action.type === "undo") return t("play.undo");
  const words = GAMES[view.game]?.label(action, view, box);
  if (words) return words;
  const named = t(`play.action.${action.type}`);
  return [named.startsWith("play.") ? action.type.replaceAll("_", " ") : named, fieldWords(action)].filter(Boolean).join(": ");
}

/** A log entry in words: who did what, and what came of it. */
export function describeEntry(entry, view, box) {
  const who = entry.seat == null ? "" : nameOf(view, entry.seat);
  const action = entry.action || {};
  const parts = [];
  for (const event of entry.events || []) {
    const own = GAMES[view.game]?.event(event, view, box);
    if (own) parts.push(own);
    else if (event.type === "joined") parts.push(t("play.joined", { who: event.name ?? nameOf(view, event.seat) }));
    else if (event.type === "left") parts.push(t("play.left", { who: nameOf(view, event.seat) }));
    else if (event.type === "taken_over") parts.push(t("play.takenOver", { who: nameOf(view, event.seat), bot: event.bot }));
    else if (event.type === "timed_out") parts.push(t("play.timedOut", { who: nameOf(view, event.seat) }));
    else if (event.type === "undone") parts.push(t("play.undone", { who }));
    else if (event.type === "game_over") parts.push(t("play.gameOver"));
  }
  if (parts.length) return parts.join(" — ");
  const did = describeAction(action, view, box);
  return who ? `${who}: ${did}` : did;
}

/** The board of the view's game, or null for a game this page cannot draw (its actions are still
 * offered as buttons). */
export function drawBoard(view, box, offer) {
  const game = GAMES[view.game];
  if (!game || !view.state) return null;
  return game.board(view, box, offer);
}
