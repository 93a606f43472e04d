/**
 * The base of the run elements: a store, from a property or `src`/`token` attributes.
 *
 * @module
 */
import type { RunState } from "../events/run-state.ts";
import { createRunStore, type RunConnection, type RunStore } from "./create-run-store.ts";
import { themeStyles } from "./theme-styles.ts";

/**
 * `HTMLElement` where there is one; a plain class elsewhere, so that the
 * module loads in Node or workerd (where the store is still useful) and the
 * element classes are simply never defined.
 */
const ElementBase: typeof HTMLElement = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

/** One style sheet per kind of element, made when the first of its kind is. */
const sheets = new Map<string, CSSStyleSheet>();

/**
 * An element that shows a run's store: set its `store` property, or its
 * `src` (an event-stream URL) and `token` attributes, and it renders each
 * new snapshot while it is connected.
 */
export abstract class RunViewElement extends ElementBase {
  static observedAttributes = ["src", "token"];
  #store: RunStore | undefined;
  /** The store made from `src`, closed when it is replaced. */
  #ownStore: RunStore | undefined;
  #unsubscribe: (() => void) | undefined;
  #rendered: RunState | undefined;
  #renderedConnection: RunConnection | undefined;
  #sourceQueued = false;
  /** The element's shadow root. */
  protected readonly root: ShadowRoot;

  constructor(styles: string) {
    super();
    this.root = this.attachShadow({ mode: "open" });
    // A constructed style sheet, shared by the elements of a kind, is not inline style: a page whose
    // Content-Security-Policy says `style-src 'self'` applies it, where it would refuse a <style> element.
    if (typeof CSSStyleSheet === "function" && "replaceSync" in CSSStyleSheet.prototype) {
      let sheet = sheets.get(styles);
      if (sheet === undefined) {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(themeStyles + styles);
        sheets.set(styles, sheet);
      }
      this.root.adoptedStyleSheets = [sheet];
      return;
    }
    const style = document.createElement("style");
    style.textContent = themeStyles + styles;
    this.root.append(style);
  }

  /** The store shown; setting it replaces one made from `src`. */
  get store(): RunStore | undefined {
    return this.#store;
  }

  set store(store: RunStore | undefined) {
    if (store === this.#store) return;
    if (this.#ownStore !== undefined && store !== this.#ownStore) {
      this.#ownStore.close();
      this.#ownStore = undefined;
    }
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#store = store;
    this.#rendered = undefined;
    this.#renderedConnection = undefined;
    if (this.isConnected) this.#follow();
  }

  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (previous === value || (name !== "src" && name !== "token") || this.#sourceQueued) return;
    // `src` and `token` often change together (parsing, a framework's update): make one store for both.
    this.#sourceQueued = true;
    queueMicrotask(() => {
      this.#sourceQueued = false;
      this.#connectSource();
    });
  }

  #connectSource(): void {
    const src = this.getAttribute("src");
    if (src === null || src === "") {
      if (this.#ownStore !== undefined) this.store = undefined;
      return;
    }
    const token = this.getAttribute("token");
    const store = createRunStore(src, { lazy: true, ...(token === null ? {} : { token }) });
    this.store = store;
    this.#ownStore = store;
  }

  connectedCallback(): void {
    if (this.#store === undefined && !this.#sourceQueued && (this.getAttribute("src") ?? "") !== "")
      this.#connectSource();
    this.#follow();
  }

  disconnectedCallback(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    // A store made from `src` stops reading once the element is gone for good (not merely moved).
    queueMicrotask(() => {
      if (this.isConnected || this.#ownStore === undefined) return;
      this.store = undefined;
    });
  }

  #follow(): void {
    const store = this.#store;
    if (store === undefined || this.#unsubscribe !== undefined) {
      if (store === undefined) this.#update();
      return;
    }
    this.#unsubscribe = store.subscribe(() => this.#update());
    this.#update();
  }

  #update(): void {
    const store = this.#store;
    const state = store?.getSnapshot();
    const connection = store?.getConnection();
    if (state !== undefined && state === this.#rendered && connection === this.#renderedConnection) return;
    this.#rendered = state;
    this.#renderedConnection = connection;
    this.render(state, connection, store);
  }

  /**
   * Draws a snapshot; called only when it or the connection changed.
   *
   * @param state - the run's state, or `undefined` without a store.
   * @param connection - where reading stands.
   * @param store - the store.
   */
  protected abstract render(
    state: RunState | undefined,
    connection: RunConnection | undefined,
    store: RunStore | undefined,
  ): void;
}

/**
 * Creates an element with attributes and children.
 *
 * @param tag - the tag name.
 * @param attributes - attributes to set (`undefined` values are left out).
 * @param children - text or nodes.
 * @returns the element.
 */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | undefined> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) node.setAttribute(name, value);
  node.append(...children);
  return node;
}
