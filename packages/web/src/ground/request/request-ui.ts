/** What the request layer shows; the app plugs antd's message and modal in at start. */
export interface RequestUi {
  /** The 'Confirm logout' dialog; resolves true for Re-Login, false for Cancel. */
  confirmLogout(): Promise<boolean>;
  /** An error message shown for `seconds`. */
  error(message: string, seconds: number): void;
  /** Reloads the page. */
  reload(): void;
}

export const LOGOUT_TITLE = 'Confirm logout';
export const LOGOUT_TEXT = 'You have been logged out, you can cancel to stay on this page, or log in again';

let current: RequestUi | undefined;
let waiting: ((ui: RequestUi) => void)[] = [];

function whenReady<T>(use: (ui: RequestUi) => T): Promise<T> {
  if (current) return Promise.resolve(use(current));
  return new Promise((resolve) => waiting.push((ui) => resolve(use(ui))));
}

/**
 * Installs the UI the request layer uses (calls made before it are held until then);
 * answers a function that uninstalls it.
 */
export function setRequestUi(ui: RequestUi): () => void {
  current = ui;
  const held = waiting;
  waiting = [];
  for (const run of held) run(ui);
  return () => {
    if (current === ui) current = undefined;
  };
}

/** The installed UI, or one that holds each call until a UI is installed. */
export function requestUi(): RequestUi {
  return (
    current ?? {
      confirmLogout: () => whenReady((ui) => ui.confirmLogout()).then((p) => p),
      error: (message, seconds) => void whenReady((ui) => ui.error(message, seconds)),
      reload: () => void whenReady((ui) => ui.reload()),
    }
  );
}
