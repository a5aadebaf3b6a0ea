/** The square "add an image" tile of a form: the file input covers it, so it is reached and
 * opened with the keyboard like any input. The input is emptied after each choice, so the same
 * file can be chosen again. */
export function AddImage({ label, multiple = false, disabled = false, onFiles }: { label: string; multiple?: boolean; disabled?: boolean; onFiles: (files: File[]) => void }) {
  return (
    <label className="add-image">
      <span>{label}</span>
      <input
        type="file"
        accept="image/png,image/jpeg,image/gif"
        multiple={multiple}
        disabled={disabled}
        onChange={(e) => {
          onFiles(Array.from(e.target.files ?? []));
          e.target.value = "";
        }}
      />
    </label>
  );
}
