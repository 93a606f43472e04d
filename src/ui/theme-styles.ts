/**
 * The shared look of the run elements: CSS custom properties with defaults.
 *
 * @module
 */

/**
 * The custom properties every element reads, with their defaults. Set them
 * on any ancestor (`plankit-run { --plankit-accent: rebeccapurple }`).
 */
export const themeStyles = `
:host {
  --_text: var(--plankit-text, #1f2328);
  --_muted: var(--plankit-muted, #57606a);
  --_background: var(--plankit-background, #ffffff);
  --_surface: var(--plankit-surface, #f6f8fa);
  --_border: var(--plankit-border, #8c959f);
  --_accent: var(--plankit-accent, #0969da);
  --_success: var(--plankit-success, #1a7f37);
  --_danger: var(--plankit-danger, #cf222e);
  --_warning: var(--plankit-warning, #9a6700);
  --_radius: var(--plankit-radius, 6px);
  --_focus: var(--plankit-focus, #0969da);
  display: block;
  box-sizing: border-box;
  max-width: 100%;
  color: var(--_text);
  font: var(--plankit-font, 14px/1.4 system-ui, sans-serif);
}
:host([hidden]) { display: none; }
*, *::before, *::after { box-sizing: border-box; }
:focus-visible { outline: 2px solid var(--_focus); outline-offset: 2px; }
button {
  font: inherit;
  color: var(--_text);
  background: var(--_surface);
  border: 1px solid var(--_border);
  border-radius: var(--_radius);
  padding: 0.3em 0.9em;
  cursor: pointer;
}
button:disabled { opacity: 0.6; cursor: default; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;
