// DIG's own words in English and Korean: its bowls and bones, its tie-break and what its scorer
// refuses. The page finds them once the game's sheet is loaded (i18n.js); both languages have the
// same keys (tests/web/test_game_words.py).
export default {
  en: {
    "tieRule.dig": "Most 5-point bones, then 4-point, 3-point, 2-point, 1-point.",
    "tieStill": "They tie on it too: the place is shared.",
    bonesDropped: "Bones dropped in bowls",
    bowls: "Bowls, from the Doghouse out",
    bowl: "Bowl {n}",
    bowlNotSet: "Choose a colour",
    perBone: "{n} per bone",
    // the bowls tapped in order
    tapBowls: "Tap the bowls in order, from the Doghouse out:",
    tapNext: "Now tap bowl {n}:",
    bowlsShared: "Bowls from the Doghouse: {bowls}",
    bonesAt: "{bones} × {pt}", // a tie-break's figure: "1 × 5 pt"
    tapAgain: "The bowls in order, from the Doghouse out. To change it, tap the first bowl that is wrong, then the rest again:",
    waitBowls: "Totals wait until every bowl's colour is set.",
    setBowls: "Totals wait for the order of the bowls at the end: tap them from the Doghouse out, or choose each bowl's colour.",
    bowlTapped: "{colour}, {place} from the Doghouse",
    "problem.bowls": ({ missing }) => `List each of the five bowls once, nearest the Doghouse first${missing ? `; missing: ${missing}` : ""}.`,
    "problem.bonesOver": "Together the players dropped {held} {colour} bones, but the game has only {most}.",
    items: {
      colour: { green: "green", yellow: "yellow", purple: "purple", blue: "blue", red: "red" },
    },
  },
  ko: {
    "tieRule.dig": "5점 뼈가 많은 사람, 그다음 4점, 3점, 2점, 1점 뼈 순서로 정합니다.",
    "tieStill": "동점 규칙으로도 같아 같은 순위입니다.",
    bonesDropped: "그릇에 떨어뜨린 뼈",
    bowls: "그릇, 개집에서 가까운 순",
    bowl: "그릇 {n}",
    bowlNotSet: "색 고르기",
    perBone: "뼈 하나에 {n}점",
    tapBowls: "개집에서 가까운 그릇부터 차례로 누르세요:",
    tapNext: "개집에서 {n}번째 그릇의 색을 누르세요:",
    bowlsShared: "개집에서 가까운 그릇부터: {bowls}",
    bonesAt: "{pt} 뼈 {bones}개",
    tapAgain: "개집에서 가까운 그릇부터의 순서입니다. 바꾸려면 처음 틀린 그릇을 누르고 나머지를 다시 누르세요:",
    waitBowls: "그릇마다 색이 정해지면 합계가 나옵니다.",
    setBowls: "게임이 끝났을 때의 그릇 순서를 넣으면 합계가 나옵니다: 개집에서 가까운 그릇부터 누르거나, 그릇마다 색을 고르세요.",
    bowlTapped: "{colour}, 개집에서 {n}번째",
    "problem.bowls": ({ missing }) => `다섯 그릇을 한 번씩, 개집에서 가까운 순서로 적으세요${missing ? `. 빠진 색: ${missing}` : ""}.`,
    "problem.bonesOver": "플레이어들이 {colour} 뼈를 모두 {held}개 떨어뜨렸지만, 게임에는 {most}개뿐입니다.",
    items: {
      colour: { green: "초록", yellow: "노랑", purple: "보라", blue: "파랑", red: "빨강" },
    },
  },
};
