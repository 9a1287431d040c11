import ReactMarkdown from 'react-markdown';

/** Markdown as HTML (no raw HTML passes: react-markdown escapes it). Loaded on first use. */
export default function Markdown({ children }: { children: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown>{children}</ReactMarkdown>
    </div>
  );
}
