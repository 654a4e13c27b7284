// Dialog and Sheet are deliberately not re-exported here: they are imported from './Dialog' by
// code that loads on demand (a dialog's own), so a page that never opens one does not load them.
export { Badge, type BadgeTone } from './Badge';
export { Button, ButtonLink, buttonClass, type ButtonProps, type ButtonVariant, type ButtonSize } from './Button';
export { Card } from './Card';
export { cn } from './cn';
export { FieldError, Input, Label, Textarea } from './Input';
export { Spinner } from './Spinner';
export { SectionHeading } from './SectionHeading';
export { PageHero } from './PageHero';
