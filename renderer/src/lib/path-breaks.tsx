/** A path that may wrap only after a `/` or `\\` (never inside a folder name). */
export function PathText(props: { path: string }) {
  const parts = props.path.split(/(?<=[\\/])/);
  return (
    <>
      {parts.map((p, i) => (
        <span key={i}>
          {p}
          {i < parts.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </>
  );
}
