// Light and dark: the system's `prefers-color-scheme` by default, or the reader's choice from the
// header's toggle, kept in localStorage and applied as `data-theme` on the root element.

const THEME_KEY = "pincer.control.theme";

/** A theme choice: follow the system, or a fixed one. */
export type ThemeChoice = "system" | "light" | "dark";

/** The stored choice (anything unknown is "system"). */
export function storedTheme(storage: Storage): ThemeChoice {
  const value = storage.getItem(THEME_KEY);
  return value === "light" || value === "dark" ? value : "system";
}

/** The next choice of the toggle: system → dark → light → system. */
export function nextTheme(choice: ThemeChoice): ThemeChoice {
  switch (choice) {
    case "system":
      return "dark";
    case "dark":
      return "light";
    case "light":
      return "system";
  }
}

/** Stores `choice` and applies it to `root` (`data-theme` absent for "system"). */
export function applyTheme(params: { root: HTMLElement; storage: Storage; choice: ThemeChoice }) {
  const { root, storage, choice } = params;
  if (choice === "system") {
    storage.removeItem(THEME_KEY);
    delete root.dataset.theme;
  } else {
    storage.setItem(THEME_KEY, choice);
    root.dataset.theme = choice;
  }
}
