/**
 * The diagnostic a file that lost to another of the same name gets, with its texts written
 * when they are read. A shelf of copied skills has one such note per copy (7,067 on the
 * 15,725-file mirror), each message and hint a template naming two paths: as strings they
 * were ≈ 3.5 MiB of the load's kept heap, most of it V8's concatenation trees, and every kept
 * byte of a load counts twice towards the survivors that make V8 grow its young generation.
 * Here a note holds the loss it describes (already kept for `overridden()`) and what its
 * name's group says about the winner; `message` and `hint` are enumerable getters in the
 * places a plain diagnostic has them, so the note reads, spreads, serialises and compares
 * as the plain object it replaces.
 */
import type { Diagnostic } from "../types.js";
import type { Overridden } from "./resolve.js";

/** What the notes of one name's files say about the file used for it. */
export interface GroupWinner {
  /** The file used for the name (a duplicate may lose to the best of its scope instead). */
  file: string;
  /** Pinned by `prefer`. */
  pinned: boolean;
  /** How many files of the name each scope has. */
  project: number;
  user: number;
  builtin: number;
}

const LOSS = Symbol("loss");
const GROUP = Symbol("group");

interface Note extends Diagnostic {
  [LOSS]: Overridden;
  [GROUP]: GroupWinner;
}

/** A new text set on a note becomes a plain data property in the same place. */
function settable(key: "message" | "hint") {
  return function (this: Note, value: string) {
    Object.defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true });
  };
}

/** Shared by every note: objects whose same property is the same getter keep one hidden class. */
const MESSAGE: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: Note): string {
    return messageOf(this[LOSS], this[GROUP]);
  },
  set: settable("message"),
};
const HINT: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: Note): string {
    return hintOf(this[LOSS]);
  },
  set: settable("hint"),
};
const HIDDEN: PropertyDescriptor = { configurable: true, enumerable: false, writable: false };

/**
 * Made with `new`, so V8 sizes the object for its fields (a literal grown by defineProperty
 * keeps most of them in a separate property array); its prototype is Object.prototype, as a
 * literal's is.
 */
const NoteObject = function (this: Note, loss: Overridden, group: GroupWinner) {
  this.severity = loss.reason === "role-shadowed" ? "error" : "warning";
  this.code = loss.reason;
  Object.defineProperty(this, "message", MESSAGE);
  this.file = loss.file;
  this.line = 1;
  Object.defineProperty(this, "hint", HINT);
  Object.defineProperty(this, LOSS, { ...HIDDEN, value: loss });
  Object.defineProperty(this, GROUP, { ...HIDDEN, value: group });
} as unknown as new (
  loss: Overridden,
  group: GroupWinner,
) => Note;
NoteObject.prototype = Object.prototype;

/** The diagnostic for `loss`, keys in a plain diagnostic's order (severity, code, message, file, line, hint). */
export function overrideNote(loss: Overridden, group: GroupWinner): Diagnostic {
  return new NoteObject(loss, group);
}

function messageOf(loss: Overridden, group: GroupWinner): string {
  const name = `'${loss.name}'`;
  // The loser's own winner is the group's when it is not a duplicate of another scope's best.
  const usedFile = loss.by === group.file;
  const pinned = group.pinned && usedFile;
  switch (loss.reason) {
    case "shadowed":
      return `${loss.scope} skill ${name} (${loss.file}) is shadowed by the ${loss.byScope} skill of the same name (${loss.by})${pinned ? " (pinned by `prefer`)" : ""}.`;
    case "duplicate-name": {
      const copies = group[loss.scope];
      const order = pinned
        ? "pinned by `prefer`"
        : "the first by source folder, then folder depth, then path";
      const used = usedFile ? "is used" : `comes first there (itself shadowed by ${group.file})`;
      return `${name} is defined by ${copies} files in the ${loss.scope} scope; ${loss.by} ${used} (${order}), ${loss.file} is ignored.`;
    }
    case "role-shadowed":
      return `${name} is a role (${loss.by}); the ordinary skill ${loss.file} cannot replace it and is ignored.`;
    case "locked":
      return `${name} is a locked builtin skill; ${loss.file} cannot override it and is ignored.`;
  }
}

function hintOf(loss: Overridden): string {
  switch (loss.reason) {
    case "shadowed":
      return `Nothing to do if ${loss.by} is meant to replace it; otherwise rename one of them.`;
    case "duplicate-name":
      return `Give one of them another \`name\`, delete the copies you do not want, or pin the one to use with \`prefer: { "${loss.name}": "<path>" }\`.`;
    case "role-shadowed":
      return "Rename this skill (its `name` and folder); to replace the role itself, add `role: true` to it.";
    case "locked":
      return "Choose another `name` for this skill (and rename its folder to match).";
  }
}
