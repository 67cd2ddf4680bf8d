/**
 * Function words that carry no routing signal. They stay in phrases (a trigger "tell me a
 * joke" still needs every word) but are left out of the lexical index and out of a
 * message's weight, so "how do I …" costs a message nothing and proves nothing.
 *
 * Kept short on purpose: a word a skill could plausibly be about ("help", "make", "new",
 * "time") is not a stop word. English (pre-stemming, lower-case), Chinese and Japanese.
 */
const ENGLISH = `a about all am an and any are as at be because been being between both but by can cannot could
did do does doing during each for from further had has have having he her here hers herself him
himself his how i if in into is it its itself just let lets me my myself no nor not of on once
only or other our ours ourselves own please same she should so some such than that the their
theirs them themselves then there these they this those through to too until very was we were
what when where which while who whom why will with would you your yours yourself yourselves i'm
i've i'd i'll it's don't can't won't im ive id ill dont cant wont s t d ll m re ve also may
might must shall thanks thank hi hello hey ok okay yes`;

// Particles, pronouns, politeness forms and question words as Intl.Segmenter splits them.
const CJK = `的 了 是 我 你 他 她 它 们 我们 你们 在 和 与 及 或 吗 呢 吧 啊 呀 哦 么 一下 请 请问 把 被 这 那 这个 那个
这些 那些 个 一个 有 也 都 就 还 又 很 给 让 得 地 着 过 之 其 该 此 为 对 从 向 以 于 上 下 中
怎么 怎样 怎么样 什么 如何 为什么 哪 哪个 哪些 哪里 多少 可以 能 有没有 一些 一点
の を に は が て で と も た だ です ます する した して ください くだ さい か よ ね な や から まで
より へ これ それ あれ この その あの ない ある いる なる れる られる`;

export const STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH.split(/\s+/u), ...CJK.split(/\s+/u)]);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}
