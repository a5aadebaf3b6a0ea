/** An answer the server wrote into the page beside its first paint (`<script id=… type=
 * "application/json" data-locale=…>`), when it is there for this locale and readable; the page
 * puts it in the query cache and renders at once instead of asking again. */
export function firstPaintData<T>(id: string, locale: string): T | null {
  const node = document.getElementById(id);
  if (!node || node.dataset.locale !== locale) return null;
  try {
    return (JSON.parse(node.textContent ?? "") as { data: T }).data;
  } catch {
    // Unreadable: the page asks for it.
    return null;
  }
}
