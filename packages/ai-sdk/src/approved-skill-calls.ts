/**
 * A user's approval of one of skillshelf's own tools. A host that asks about every call
 * (`streamText({ toolApproval })`) asks about an activation too, and the SDK runs the calls
 * the user approved at the start of the next request, before its first step: before
 * `prepareStep` has registered any skill tool. It looks each one up in the tool set it was
 * given, and one it cannot find gets no result, so the SDK rejects the whole request
 * (`AI_MissingToolResultsError`).
 *
 * So the tool set `wrap()` returns also answers a lookup of a name it does not hold when core
 * says the name is one of skillshelf's tools: that tool is registered then, and its call is
 * answered by core in the session of the request's messages, where it is judged as part of
 * the response it came in (`respondToPendingCalls`): an approved activation applies, and the
 * calls approved with it are judged under it. Only the names looked up are registered:
 * registering every skill's tool for every request would cost what a large shelf cannot pay.
 */
import type { Tool, ToolSet } from "ai";

/**
 * `tools`, answering a lookup (`tools[name]`, `name in tools`, `Object.hasOwn`) of a string key
 * it does not hold with `lookUp(name)`, kept in `tools` when there is one. Each name is looked
 * up once: a miss is remembered too (the SDK reads keys such as `then` of any object).
 */
export function withSkillToolsOnLookUp(tools: ToolSet, lookUp: (name: string) => Tool | undefined): ToolSet {
  const missed = new Set<string>();
  const ensure = (target: ToolSet, key: string | symbol) => {
    if (typeof key !== "string" || Object.hasOwn(target, key) || missed.has(key)) return;
    const tool = lookUp(key);
    // Defined, not assigned: no key (`__proto__` included) can reach a setter this way.
    if (tool)
      Object.defineProperty(target, key, {
        value: tool,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    else missed.add(key);
  };
  return new Proxy(tools, {
    // Straight onto the object: an assignment through the proxy would look the key up first.
    set(target, key, value) {
      return Reflect.set(target, key, value);
    },
    get(target, key, receiver) {
      ensure(target, key);
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      ensure(target, key);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      ensure(target, key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
}
