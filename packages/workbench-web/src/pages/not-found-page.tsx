import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <div className="page">
      <h1>Not found</h1>
      <p>
        No page here. Go to <Link to="/projects">projects</Link>.
      </p>
    </div>
  );
}
