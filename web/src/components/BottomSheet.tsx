import { type ReactNode, useRef } from "react";

import { Dialog } from "./ui";

/** A sheet from the bottom of the screen (a dialog: focus kept inside, Escape closes) that also
 * closes when dragged down by more than 5 px. */
export function BottomSheet(props: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const startY = useRef<number | null>(null);
  return (
    <Dialog
      open={props.open}
      title={props.title}
      onClose={props.onClose}
      sheet
      top={
        <div
          className="sheet-handle"
          aria-hidden="true"
          onPointerDown={(e) => {
            startY.current = e.clientY;
            e.currentTarget.setPointerCapture?.(e.pointerId);
          }}
          onPointerUp={(e) => {
            if (startY.current !== null && e.clientY - startY.current > 5) props.onClose();
            startY.current = null;
          }}
        />
      }
    >
      {props.children}
    </Dialog>
  );
}
