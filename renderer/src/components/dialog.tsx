import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A modal on the native <dialog>: the browser traps focus, Esc closes it, and focus returns
 * to the control that opened it.
 */
export function Dialog(props: { title: string; open: boolean; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (props.open && !el.open) {
      opener.current = document.activeElement;
      el.showModal();
    } else if (!props.open && el.open) {
      el.close();
      (opener.current as HTMLElement | null)?.focus?.();
    }
  }, [props.open]);

  return (
    <dialog
      ref={ref}
      class={props.wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby="dialog-title"
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      {props.open ? (
        <>
          <h2 id="dialog-title">{props.title}</h2>
          {props.children}
        </>
      ) : null}
    </dialog>
  );
}

/** Asks before a destructive action. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onCancel}>
      <div>{props.message}</div>
      <div class="actions">
        <button type="button" class={props.danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
        <button type="button" class="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
