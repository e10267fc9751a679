// Digging for Dinos' own words in English and Korean: its dinosaurs, its breakdown, its tie-break
// and what its scorer refuses. The page finds them once the game's sheet is loaded (i18n.js); both
// languages have the same keys (tests/web/test_game_words.py).
export default {
  en: {
    // the grid's pad for a dinosaur's tiles (grid.js)
    oneOfEach: "One of each", tileOff: "take one tile off",
    tileHeld: "{dinosaur} {position} ({value} pt): {held} held",
    tileElsewhere: "{n} held by the other players", tileOver: "more than the box holds",
    tilesOver: "Tile {positions}: more at the table than the box has. −1 takes one off.",
    "tieRule.digging-for-dinos": "The largest completed dinosaur wins, then the second largest, and so on.",
    "tieStill": "They tie on it too: the place is shared.",
    "part.completed": "Completed", "part.loose": "Loose tiles",
    "problem.noDinosaur": "'{id}' is not a dinosaur of this game.",
    "problem.noPosition": "{id} has positions 1 to {size}, not {position}.",
    "problem.tilesOver": "Together the players hold {held} {id} {position} tiles, but there is only one in each of the {eras} eras.",
    "problem.completedOver": "These tiles complete {completed} dinosaurs, but no one completes more than {most}: the game ends once a player completes their {end}th, after which each player takes at most one more turn and then the tiles under their paleontologists.",
    items: {
      dinosaur: { velociraptor: "Velociraptor", deinosuchus: "Deinosuchus", pterodactyl: "Pterodactyl",
        stegosaurus: "Stegosaurus", triceratops: "Triceratops", tyrannosaurus: "Tyrannosaurus", brontosaurus: "Brontosaurus" },
    },
  },
  ko: {
    // the grid's pad for a dinosaur's tiles (grid.js)
    oneOfEach: "하나씩 모두", tileOff: "타일 하나 빼기",
    tileHeld: "{dinosaur} {position} ({value}점): {held}개",
    tileElsewhere: "다른 플레이어가 {n}개", tileOver: "상자에 있는 것보다 많음",
    tilesOver: "{positions}번 타일: 상자에 있는 것보다 많습니다. −1로 하나 빼세요.",
    "tieRule.digging-for-dinos": "가장 큰 완성 공룡이 이기고, 그다음 두 번째로 큰 공룡 순서로 정합니다.",
    "tieStill": "동점 규칙으로도 같아 같은 순위입니다.",
    "part.completed": "완성", "part.loose": "낱개 타일",
    "problem.noDinosaur": "'{id}'은(는) 이 게임의 공룡이 아닙니다.",
    "problem.noPosition": "{id}의 자리는 1부터 {size}까지이며, {position}은(는) 없습니다.",
    "problem.tilesOver": "플레이어들이 {id} {position} 타일을 {held}개 가졌지만, {eras}개 시대에 하나씩뿐입니다.",
    "problem.completedOver": "이 타일로 공룡 {completed}마리를 완성하지만, 누구도 {most}마리보다 많이 완성할 수 없습니다. 누군가 {end}번째 공룡을 완성하면 게임이 끝나고, 그 뒤에는 각자 많아야 한 차례를 더 둔 다음 고생물학자 아래의 타일을 가져갑니다.",
    items: {
      dinosaur: { velociraptor: "벨로키랍토르", deinosuchus: "데이노수쿠스", pterodactyl: "프테로닥틸루스",
        stegosaurus: "스테고사우루스", triceratops: "트리케라톱스", tyrannosaurus: "티라노사우루스", brontosaurus: "브론토사우루스" },
    },
  },
};
