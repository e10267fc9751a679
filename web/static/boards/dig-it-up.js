// Dig It Up on the play page (play-boards.js): its actions and events in words, and its board,
// drawn from a seat's view: the missions to keep, the dig sites, the die, the cards and the money.
import { h } from "../dom.js";
import { format, item, minus, t } from "../i18n.js";
import { nameOf, personOf } from "../play-boards.js";

const tileName = (id) => item("tile", id);
/** A dig site by its letter, in the page's language (the box names it in English). */
const siteName = (view, id) => item("site", id, view.state?.sites?.find((s) => s.id === id)?.name || id);
/** A chance card as the rulebook names it ("Appraisal", "Treasure Chest"), in the page's language:
 * the scorer's words name the kept ones as counts ("Ann appraisal"), not as cards. */
const cardName = (box, id) => item("chance", id, box?.cards?.find((c) => c.id === id)?.name);
const missionName = (box, id) => item("mission", id, box?.missions?.find((m) => m.id === id)?.name);
/** What the Thief would take from a seat: up to the card's amount, of its money (never a −5 token:
 * RULINGS), as the server takes it. */
const robbed = (view, box, victim) => {
  const card = box?.cards?.find((c) => c.id === view.state?.turn?.card);
  return Math.min(card?.steal ?? 3, Math.max(0, view.state?.players?.[victim]?.purse ?? 0));
};
/** The space of `site` (as a view shows it) that `n` steps of its pickax land on, RULINGS "Board
 * and turn": a step goes to the next space to the right still holding a tile, wrapping to the
 * leftmost; from the start (0) the first step lands on the leftmost. Null when no tile is left. */
const landing = (site, n) => {
  const left = site.spaces.filter((s) => s.tile != null);
  if (left.length === 0) return null;
  const passed = left.filter((s) => s.space < site.pickax).length;
  return left[(passed + n - 1) % left.length];
};
/** A tile that left play (a Landslide's, a site's last) and the token on it, for the words. */
const lost = (event) => ({ tile: event.tile_lost ? tileName(event.tile_lost) : "–",
  token: event.token_lost ? minus(event.token_lost) : "" });
// The steps a chance card drawn leaves to its seat's choice, and their words (mine, everyone's).
const STEPS = {
  place_token: ["play.diu.placeYou", "play.diu.placeOther"],
  steal: ["play.diu.stealYou", "play.diu.stealOther"],
  landslide: ["play.diu.landslideYou", "play.diu.landslideOther"],
};

const digItUp = {
  /** What a mission asks, in the page's words with its number: the words name it `{min}`, the
   * box's card gives it (its `goal`, as the score sheet fills it in). */
  condition(box, id, printed) {
    const card = box?.missions?.find((m) => m.id === id);
    return format(item("condition", id, printed ?? card?.condition), card?.goal);
  },
  /** What the calculator needs of a seat for its breakdown (play-match.js). */
  sheetPlayer(p) {
    const cards = {};
    for (const card of p.cards || []) cards[card.id ?? card] = (cards[card.id ?? card] || 0) + 1;
    return { name: p.name, tiles: p.tiles || {}, tokens: (p.purse ?? 0) + (p.hazards ?? 0), cards, mission: p.mission ? { id: p.mission.id } : p.mission_kept ? { id: null } : null };
  },
  label(action, view, box) {
    switch (action.type) {
      case "keep_mission": return action.mission ? t("play.diu.keepMission", { mission: missionName(box, action.mission) }) : t("play.diu.keepAMission");
      case "dig": return action.ancient_map ? t("play.diu.digMap", { site: siteName(view, action.site), n: action.ancient_map })
        : t("play.diu.dig", { site: siteName(view, action.site) });
      case "keep_roll": return t("play.diu.keepRoll");
      case "lucky_charm": return t("play.diu.luckyCharm");
      case "place_token": return t("play.diu.placeToken", { site: siteName(view, action.site), n: action.space });
      case "steal": return t("play.diu.steal", { name: nameOf(view, action.victim), n: robbed(view, box, action.victim) });
      case "landslide": return t("play.diu.landslide", { site: siteName(view, action.site) });
      default: return null;
    }
  },
  landing,
  /** Where an Ancient Map's number `n` would dig at `site`: the tile and its space, said on the
   * number's button as the Lucky Charm's choice says where a roll kept lands. */
  mapLands(site, n) {
    const lands = landing(site, n);
    return lands && t("play.diu.mapLands", { tile: tileName(lands.tile), n: lands.space });
  },
  /** A chance card drawn that waits for its seat's choice: which card, and what the choice does
   * (rulebook "Chance cards": a card is read aloud as it is drawn, so every seat is told). */
  step(view, box, mine) {
    const turn = view.state?.turn;
    const words = turn?.card && STEPS[turn.step];
    if (!words) return null;
    const card = box?.cards?.find((c) => c.id === turn.card);
    return t(words[mine ? 0 : 1], { who: personOf(view, turn.seat), card: cardName(box, turn.card),
      value: minus(card?.token ?? 0), n: card?.steal ?? 3 });
  },
  // what came of a move, never the move itself (play-boards.js)
  aftermath: ["abandoned"],
  event(event, view, box) {
    const who = personOf(view, event.seat);
    switch (event.type) {
      // RULINGS: a number chosen with an Ancient Map is not a roll
      case "dig": return t(event.by === "ancient_map" ? "play.diu.mapped" : "play.diu.rolled", { who, site: siteName(view, event.site), n: event.roll });
      case "reroll": return t("play.diu.rerolled", { who, n: event.roll });
      case "took": {
        // the money that came with the tile, a +2 tile's and a token's (RULINGS §1): the moves
        // said only the tile, and the purses changed unexplained
        const money = (event.mark === "plus_two" ? box?.marks?.plus_two_value ?? 0 : 0) + (event.token ?? 0);
        const tile = event.tile ? tileName(event.tile) : "–";
        return money ? t("play.diu.tookMoney", { who, tile, money: money > 0 ? `+${money}` : minus(money) }) : t("play.diu.took", { who, tile });
      }
      case "card": {  // a card that gives money at once says how much (Lucky Coin, Treasure Chest)
        const gain = box?.cards?.find((c) => c.id === event.card)?.gain;
        return t(gain ? "play.diu.drewMoney" : "play.diu.drew", { who, card: cardName(box, event.card), money: gain });
      }
      // the site's last tile and its token leave play (RULINGS): they were gone unsaid
      case "abandoned": return t(event.token_lost ? "play.diu.abandonedToken" : "play.diu.abandoned", { site: siteName(view, event.site), ...lost(event) });
      case "mission_kept": return t("play.diu.missionKept", { who });
      case "token_placed": return t("play.diu.tokenPlaced", { who, site: siteName(view, event.site), n: event.space, value: minus(event.value) });
      case "stole": return t(event.amount ? "play.diu.stole" : "play.diu.stoleNothing", { who, name: nameOf(view, event.victim), n: event.amount });
      case "landslide": return t(event.token_lost ? "play.diu.landslidToken" : "play.diu.landslid", { who, site: siteName(view, event.site), ...lost(event) });
      case "no_effect": return t("play.diu.noEffect", { card: cardName(box, event.card) });
      case "deck_empty": return t("play.diu.deckEmpty", { who });
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
        h("b", { text: `${missionName(box, m.id)} · ${m.bonus} ${box.currency || ""}` }), h("span", { class: "muted", text: digItUp.condition(box, m.id, m.condition) })));
    });
    const sites = state.sites.map((site) => {
      const taken = offer.take((a) => (a.type === "dig" && a.site === site.id && !a.ancient_map) || (a.type === "landslide" && a.site === site.id));
      const head = `${siteName(view, site.id)} (${site.id}) · ${t("play.diu.pickax", { n: site.pickax })}${site.abandoned ? ` · ${t("play.diu.closed")}` : ""}`;
      const spaces = site.spaces.map((s) => {
        const here = offer.take((a) => a.type === "place_token" && a.site === site.id && a.space === s.space);
        const text = s.tile ? tileName(s.tile) : "–";
        const mark = s.mark ? (s.mark === "star" ? "★" : "+2") : "";
        const token = s.token != null ? ` ${minus(typeof s.token === "object" ? s.token.value ?? 0 : s.token)}₩` : "";
        return h("li", {}, offer.button(here, { class: "space", "data-spot": `site-${site.id}-${s.space}`, hint: here && digItUp.label(here.action, view, box) },
          h("span", { class: "pos", text: String(s.space) }), h("span", { text: text }), mark && h("span", { class: "mark", text: mark }), token && h("span", { class: "mark", text: token })));
      });
      // An Ancient Map's numbers, each a dig at this site: a row of them under its own site, not
      // six buttons for each site in the list under them all.
      const maps = [];
      for (let map; (map = offer.take((a) => a.type === "dig" && a.site === site.id && a.ancient_map));) maps.push(map);
      return h("li", { class: `site${site.abandoned ? " closed" : ""}` },
        offer.button(taken, { class: "site-head", hint: taken && digItUp.label(taken.action, view, box) }, h("span", { text: head })),
        h("ol", { class: "spaces" }, spaces),
        maps.length > 0 && h("p", { class: "maps" }, h("span", { class: "muted", text: t("play.diu.mapNumbers") }),
          maps.map((m) => {
            const lands = digItUp.mapLands(site, m.action.ancient_map);
            // named by its words as seen, after what it does ("…: 3 gold, space 5")
            return offer.button(m, { class: "map", "aria-label": [digItUp.label(m.action, view, box), lands].filter(Boolean).join(" ") },
              h("b", { text: String(m.action.ancient_map) }), lands && " ", lands && h("small", { text: lands }));
          })));
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
    // A roll a Lucky Charm may take back: the choice beside the roll it is about, above the
    // sites, not in the list under them all.
    const choice = ["keep_roll", "lucky_charm"].map((type) => offer.take((a) => a.type === type)).filter(Boolean);
    const step = digItUp.step(view, box, view.you != null && view.to_act.includes(view.you));
    return [
      missions.length > 0 && h("section", { "aria-label": t("play.diu.missions") }, h("h3", { text: t("play.diu.missions") }), h("ul", { class: "missions" }, missions)),
      h("p", { class: "die", text: [
        roll && t(roll.by === "ancient_map" ? "play.diu.lastMap" : "play.diu.lastRoll", { who: personOf(view, roll.seat), n: roll.roll, site: siteName(view, roll.site) }),
        // the turn's roll, where the line before has not said it already
        turn && turn.roll != null && !(roll && roll.seat === turn.seat && roll.roll === turn.roll) && t("play.diu.roll", { n: turn.roll }),
        // what keeping it takes, for the choice under this line (a Lucky Charm's)
        turn?.lands_on && t("play.diu.landsOn", { tile: tileName(turn.lands_on.tile), n: turn.lands_on.space }),
        // a variant played without chance cards has no deck to count
        box.variant_rules?.find((v) => v.id === view.variant)?.cards !== false && t("play.diu.deck", { n: state.deck_size }),
        t("play.diu.closedSites", { n: (state.abandoned || []).length, most: state.abandon_limit }),
      ].filter(Boolean).join(" · ") }),
      choice.length > 0 && h("p", { class: "acts roll-choice" }, choice.map((taken) => offer.button(taken, { class: "act primary" }, digItUp.label(taken.action, view, box)))),
      // a chance card waiting for its seat's choice, said to every seat above the places it is
      // made on: to its own, what to tap
      step && h("p", { class: "card-step", text: step }),
      h("ol", { class: "sites", "aria-label": t("play.diu.sites") }, sites),
      h("ul", { class: "seats-state" }, players),
    ];
  },
};

export default digItUp;
