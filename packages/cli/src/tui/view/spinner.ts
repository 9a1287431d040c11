import { Text } from 'ink';
import React from 'react';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A braille spinner; it ticks only while it is shown, so an idle TUI does not redraw. */
export function Spinner() {
  const [frame, setFrame] = React.useState(0);
  React.useEffect(() => {
    const timer = setInterval(() => setFrame((current) => (current + 1) % frames.length), 100);
    return () => clearInterval(timer);
  }, []);
  return React.createElement(Text, null, frames[frame]);
}
