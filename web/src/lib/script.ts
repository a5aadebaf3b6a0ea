/** Loads a third party's script once per address (Telegram's widget, Apple's sign-in JS); a
 * failed load may be tried again. */
const loading = new Map<string, Promise<void>>();

export function loadScript(src: string): Promise<void> {
  let done = loading.get(src);
  if (!done) {
    done = new Promise<void>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        loading.delete(src);
        script.remove();
        reject(new Error(`could not load ${src}`));
      };
      document.head.append(script);
    });
    loading.set(src, done);
  }
  return done;
}
