// DIG on the play page (play-boards.js): its actions and events in words, and its board, drawn
// from a seat's view: the yard and doghouse, the dogs, the seat's hand and the others' scents, the
// bowls and the bones dropped.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { personOf, swatch, colourWord, scentWords, scentOf } from "../play-boards.js";

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
  // what came of a move, never the move itself (play-boards.js)
  aftermath: ["yard_reset"],
  /** A move that logs no event, as done. */
  told(action, who) {
    if (!who) return null;
    if (action.type === "move") return action.to === 0 ? t("play.dig.movedHome", { who }) : t("play.dig.movedTo", { who, n: action.to });
    if (action.type === "keep") return t("play.dig.kept", { who });
    return null;
  },
  event(event, view) {
    const who = personOf(view, event.seat);
    switch (event.type) {
      case "dug": return t("play.dig.dug", { who, n: event.position, scent: scentWords(event.scent || []) })
        + (event.bone ? ` (${t("play.dig.bone", { colour: colourWord(event.bone) })})` : "");
      // in the digger's own log alone: the dig's line says what it found, as its hand does
      case "found": return t("play.dig.found", { colour: colourWord(event.bone) });
      case "put_back": return t("play.dig.putBackEvent", { who, n: event.position, scent: scentWords(event.scent || []) });
      case "dropped": return t("play.dig.dropped", { who, n: event.count, colour: colourWord(event.colour) });
      case "yard_reset": return t("play.dig.reset");
      default: return null;
    }
  },
  board(view, box, offer) {
    const { state } = view;
    const dogsAt = (position) => state.players.filter((p) => p.dog === position);
    const dogs = (position) => dogsAt(position).map((p) => h("span", { class: `dog s${p.seat}`, title: p.name, text: p.name }));
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

export default dig;
