/**
 * The i-th word of a made-up vocabulary ("quaax", "qubax", …): words of no language, so a
 * generated shelf's scores come from its own texts, not from the everyday-word lists.
 */
export const madeUpWord = (i: number): string =>
  `qu${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + (Math.floor(i / 26) % 26))}x`;
