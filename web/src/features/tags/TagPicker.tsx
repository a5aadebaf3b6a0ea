import { useTags } from "./api/get-tags";

/** The recommended tags as toggles, for a form that names up to `max` of them (asking, writing). */
export function TagPicker({ legend, picked, max, onChange }: { legend: string; picked: number[]; max: number; onChange: (ids: number[]) => void }) {
  const tags = useTags("").data?.list ?? [];
  const toggle = (id: number) =>
    onChange(picked.includes(id) ? picked.filter((p) => p !== id) : picked.length < max ? [...picked, id] : picked);
  return (
    <fieldset className="field">
      <legend>{legend}</legend>
      <div className="chips">
        {tags.map((tag) => (
          <button key={tag.id} type="button" className="chip" aria-pressed={picked.includes(tag.id)} onClick={() => toggle(tag.id)}>
            #{tag.name}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
