/**
 * A note a request asks to save.
 *
 * @module
 */

/** What a request asks to save: its title and text (the text may be missing). */
export interface DemoNote {
  title: string;
  text: string;
}

/**
 * Trims quotes, spaces and final punctuation from a part of a request.
 *
 * @param text - the part.
 * @returns the clean text.
 */
function clean(text: string): string {
  return text
    .trim()
    .replace(/^["'“”‘’「」『』]+|["'“”‘’「」『』]+$/gu, "")
    .replace(/[.!?。！？]+$/u, "")
    .trim();
}

/**
 * A title from a note's text: its first five words (or twelve characters of Chinese).
 *
 * @param text - the text.
 * @returns the title.
 */
function titleOf(text: string): string {
  if (/\p{Script=Han}/u.test(text) && !/\s/u.test(text)) return text.slice(0, 12);
  const words = text.split(/\s+/u).slice(0, 5).join(" ");
  return (words.charAt(0).toUpperCase() + words.slice(1)).slice(0, 100);
}

/**
 * Reads a request to save a note: "save a note titled groceries with the
 * text milk and eggs", "take a note: call Ana at 5", "remember that the
 * meeting is on Friday", "保存一条笔记，标题是购物，内容是牛奶和鸡蛋".
 * The title and the text are taken from the request, never made up; a
 * request to save a note without its text gives an empty `text`.
 *
 * @param query - the request.
 * @returns the note, or `undefined` when the request asks for none.
 *
 * @example
 * ```ts
 * findNote("Save a note titled groceries with the text milk and eggs"); // { title: "groceries", text: "milk and eggs" }
 * ```
 */
export function findNote(query: string): DemoNote | undefined {
  const text = query.trim();
  const titled =
    /\bnote\s+(?:titled|called|named|with the title)\s+(.+?)\s*(?:,\s*)?(?:with (?:the )?(?:text|content|body)|saying|that says|which says|:)\s*:?\s*(.+)$/iu.exec(
      text,
    );
  if (titled !== null) return { title: clean(titled[1] ?? ""), text: clean(titled[2] ?? "") };
  const chinese = /笔记.*?标题(?:是|为|叫)?\s*[:：]?\s*(.+?)\s*[，,、；;]\s*内容(?:是|为)?\s*[:：]?\s*(.+)$/u.exec(
    text,
  );
  if (chinese !== null) return { title: clean(chinese[1] ?? ""), text: clean(chinese[2] ?? "") };
  const chineseBody =
    /^(?:请)?(?:帮我)?(?:记(?:一下|下|住)?|保存|新建)(?:一条|一个)?(?:笔记)?\s*[:：，,]\s*(.+)$/u.exec(text);
  if (chineseBody !== null) {
    const body = clean(chineseBody[1] ?? "");
    return { title: titleOf(body), text: body };
  }
  const plain =
    /^(?:please\s+)?(?:save|take|make|write|add|create|jot down)\s+(?:a|this|the)?\s*note\s*(?::|saying|that says|with (?:the )?(?:text|content))\s*(.+)$/iu.exec(
      text,
    );
  if (plain !== null) {
    const body = clean(plain[1] ?? "");
    return { title: titleOf(body), text: body };
  }
  const remember = /^(?:please\s+)?(?:remember|note down|write down)\s+(?:that\s+)?(.+)$/iu.exec(text);
  if (remember !== null) {
    const body = clean(remember[1] ?? "");
    return { title: titleOf(body), text: body };
  }
  if (
    /^(?:please\s+)?(?:save|take|make|write|add|create)\s+(?:a|this|the)?\s*note\b/iu.test(text) ||
    /^(?:请)?(?:帮我)?(?:保存|记|新建)(?:一条|一个)?笔记/u.test(text)
  ) {
    return { title: "", text: "" };
  }
  return undefined;
}
