import { NotFound } from '../components/not-found.tsx';

export default function NotFoundPage() {
  return <NotFound what="Page" back={{ to: '/projects', label: 'Projects' }} />;
}
