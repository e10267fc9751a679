// The follow page's own words in English and Korean (follow.js): loaded with it, not with the
// first page; both languages have the same keys (tests/web/lang.test.mjs).
export default {
  en: {
    followQuiet: "The entering phone was last heard at {time}: counts typed on it since reach this screen once it is back.",
  },
  ko: {
    followQuiet: "입력하는 휴대폰의 마지막 연락은 {time}입니다: 그 뒤에 입력한 수는 그 휴대폰이 다시 연결되면 이 화면에 나타납니다.",
  },
};
