// Digging for Dinos on the play page (play-boards.js): its actions and events in words, and its
// board, drawn from a seat's view: the grid, the paleontologists with a compass of their legal
// moves, the stacks and the collections.
import { h } from "../dom.js";
import { item, t } from "../i18n.js";
import { ARROWS, graphemes, nameOf, personOf, shortNames } from "../play-boards.js";

const dinoName = (box, id) => item("dinosaur", id, box?.roster?.find((d) => d.id === id)?.name);
const sideWord = (side) => t(`play.dinos.${side}`);
// The mark a paleontologist is shown by, on the grid and in its compass: its side's shape.
const markOf = (side) => (side === "diagonal" ? "✕" : "✚");

// How wide a letter is, in Latin letters: a Hangul syllable (or a CJK character) is wider.
const WIDE = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;
const widthOf = (letter) => (WIDE.test(letter) ? 1.6 : 1);

/** A fossil's name on its square: whole where the square is wide enough for it, else its first
 * letters ("Tyran.", "티라노."), or fewer on the narrowest squares ("Tyra."), the whole name still
 * said to a screen reader; never broken inside a word, which a phone without hyphenation
 * dictionaries did with no hyphen ("Tyrannos|aurus"). */
function dinoWords(name) {
  const letters = graphemes(name);
  const shortened = (room) => {
    const first = letters.filter((letter) => (room -= widthOf(letter)) >= 0);
    return first.length < letters.length - 1 ? `${first.join("")}.` : name;
  };
  const [short, shorter] = [shortened(5), shortened(4)];
  return h("span", { class: "dino" }, h("span", { class: "whole", text: name }),
    short !== name && h("span", { class: "short", "aria-hidden": "true", text: short }),
    shorter !== short && h("span", { class: "shorter", "aria-hidden": "true", text: shorter }));
}

/** The paleontologist the set-up places next (rulebook "Setup" 4: each player's orthogonal one
 * first, then the diagonal ones), by its side and mark: "orthogonal paleontologist (✚)". */
const placingWho = (view) => {
  const side = view.state?.placing?.side;
  return side ? `${t("play.dinos.token", { side: sideWord(side) })} (${markOf(side)})` : t("play.dinos.aToken");
};

const dinos = {
  /** The set-up's placing: whose paleontologist goes down next, and which (the two are placed
   * in an order of their own, each seat's orthogonal one first), for every seat to read. */
  step(view, box, mine) {
    const placing = view.state?.placing;
    // a dinosaur completed with the flip ability waits for its seat's flip (or none): the table
    // read only "Ann to play", and the seat had two buttons and no word of why
    if (view.state?.phase === "flipping") return t(mine ? "play.dinos.flipYou" : "play.dinos.flipOther", { who: personOf(view, view.to_act[0]) });
    if (!placing || view.state.phase !== "placing") return null;
    return t(mine ? "play.dinos.placeYou" : "play.dinos.placeOther", { who: personOf(view, placing.seat), token: placingWho(view) });
  },
  label(action, view, box) {
    const token = view.state?.players?.[view.you]?.tokens?.[action.token];
    const who = token ? t("play.dinos.token", { side: sideWord(token.side) }) : t("play.dinos.aToken");
    switch (action.type) {
      case "place": return t("play.dinos.place", { who: placingWho(view), row: action.row + 1, column: action.column + 1 });
      case "move": return t("play.dinos.move", { who, arrow: ARROWS[action.direction] || "", direction: t(`play.dir.${action.direction}`) });
      case "free_move": return t("play.dinos.freeMove", { who, row: action.row + 1, column: action.column + 1 });
      case "flip": return t("play.dinos.flip", { who });
      case "skip_flip": return t("play.dinos.skipFlip");
      default: return null;
    }
  },
  // what came of a move, never the move itself (play-boards.js)
  aftermath: ["end_triggered"],
  event(event, view, box) {
    const who = personOf(view, event.seat);
    switch (event.type) {
      case "placed": return t("play.dinos.placed", { who, token: event.side ? t("play.dinos.token", { side: sideWord(event.side) }) : t("play.dinos.aToken"), row: event.row + 1, column: event.column + 1 });
      case "moved": return t("play.dinos.moved", { who, arrow: ARROWS[event.direction] || "", row: event.to[0] + 1, column: event.to[1] + 1 });
      // the tile that completes a dinosaur says so (its set now scores whole)
      case "took": return t(event.completed ? "play.dinos.tookWhole" : "play.dinos.took", { who, dinosaur: dinoName(box, event.dinosaur), n: event.position });
      case "free_move": return t("play.dinos.movedFree", { who, row: event.to[0] + 1, column: event.to[1] + 1 });
      case "refilled": return null;
      case "flipped": return t("play.dinos.flipped", { who });
      case "flip_skipped": return t("play.dinos.flipSkipped", { who });
      case "end_triggered": return t("play.dinos.endTriggered");
      default: return null;
    }
  },
  // The era now and the tiles left in each era's stack: "Current era: 2 · Tiles left in the
  // stacks: era 1: 0, era 2: 12, era 3: 16".
  stacks(state) {
    return [t("play.dinos.current", { n: state.era }),
      t("play.dinos.stacks", { list: state.stacks.map((s) => t("play.dinos.stack", { era: s.era, n: s.tiles })).join(", ") })].join(" · ");
  },
  board(view, box, offer) {
    const { state } = view;
    const short = shortNames(view);
    const rows = state.grid.rows.map((row, r) => h("tr", {}, row.map((tile, c) => {
      const taken = offer.take((a) => (a.type === "place" || a.type === "free_move") && a.row === r && a.column === c);
      const where = t("play.dinos.at", { row: r + 1, column: c + 1 });
      const token = tile?.token;
      // A square emptied by a dig may still hold a paleontologist: a tile of nulls with a token.
      const fossil = tile?.dinosaur ? tile : null;
      const what = fossil ? `${dinoName(box, fossil.dinosaur)} ${fossil.position}` : t("play.dinos.empty");
      const owner = token && `${nameOf(view, token.seat)} (${t("play.dinos.token", { side: sideWord(token.side) })})`;
      return h("td", { class: [fossil ? `era${fossil.era}` : "void", token?.seat === view.you && "mine"].filter(Boolean).join(" ") }, offer.button(taken, {
        class: "cell", "data-spot": `grid-${r}-${c}`, title: [where, what, owner].filter(Boolean).join(" · "), hint: taken && `${where} · ${dinos.label(taken.action, view, box)}`,
      }, fossil ? [dinoWords(dinoName(box, fossil.dinosaur)), h("span", { class: "pos" }, `${fossil.position} · `, h("span", { class: "era", text: t("play.dinos.era", { n: fossil.era }) }))] : null,
      // the mark and short name shown, the whole name and side said ("Gre ✕" said nothing)
      token && h("span", { class: `dog s${token.seat}`, "aria-hidden": "true", text: `${short[token.seat]} ${markOf(token.side)}` }),
      token && h("span", { class: "vh", text: owner })));
    })));
    // Each of the seat's paleontologists with the ways it may go, a compass to tap: the
    // directions are the box's, the ways open are the view's legal actions.
    const own = state.players.find((p) => p.seat === view.you);
    const compasses = (own?.tokens || []).map((token) => {
      const ways = new Map((box.tokens || []).flatMap((side) => side.directions).map((direction) =>
        [direction, offer.take((a) => a.type === "move" && a.token === token.id && a.direction === direction)]));
      if (![...ways.values()].some(Boolean)) return null;
      const name = t("play.dinos.token", { side: sideWord(token.side) });
      // Its name and square above the compass: in the 48 px square at its middle, only the mark
      // the grid shows it by (its words overran the arrows there).
      return h("div", { class: "compass-of", role: "group", "aria-label": name },
        h("p", { class: "compass-name", text: `${name}${token.row == null ? "" : ` · ${t("play.dinos.at", { row: token.row + 1, column: token.column + 1 })}`}` }),
        h("div", { class: "compass" },
          ["NW", "N", "NE", "W", null, "E", "SW", "S", "SE"].map((direction) => (direction
            ? offer.button(ways.get(direction) || null, { class: "way", hint: ways.get(direction) && dinos.label(ways.get(direction).action, view, box) },
              h("span", { "aria-hidden": "true", text: ARROWS[direction] }))
            : h("span", { class: "way centre", "aria-hidden": "true", text: markOf(token.side) })))));
    });
    const players = state.players.map((p) => h("li", { class: "seat-state", "data-spot": `seat-${p.seat}` },
      h("b", { text: p.name }), ` · ${t("play.dinos.tiles", { n: p.tiles })}`,
      h("p", { class: "muted", text: p.tokens.map((tk) => `${sideWord(tk.side)}${tk.row == null ? "" : ` ${t("play.dinos.at", { row: tk.row + 1, column: tk.column + 1 })}`}`).join(" · ") }),
      h("p", { text: Object.entries(p.collection || {}).map(([id, held]) => `${dinoName(box, id)} ${held.join(",")}`).join(" · ") || t("none") }),
      Object.keys(p.completed || {}).length ? h("p", { class: "good", text: `${t("play.dinos.completed")}: ${Object.entries(p.completed).map(([id, n]) => `${dinoName(box, id)}${n > 1 ? ` ×${n}` : ""}`).join(", ")}` }) : null));
    const step = dinos.step(view, box, view.you != null && view.to_act.includes(view.you));
    return [
      h("p", { class: "muted", text: dinos.stacks(state) }),
      step && h("p", { class: "card-step", text: step }),
      h("table", { class: "dinogrid" }, h("caption", { class: "vh", text: t("play.dinos.grid") }), h("tbody", {}, rows)),
      compasses.some(Boolean) && h("div", { class: "compasses" }, compasses),
      h("ul", { class: "seats-state" }, players),
    ];
  },
};

export default dinos;
