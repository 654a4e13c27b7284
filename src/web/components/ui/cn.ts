import { clsx, type ClassValue } from 'clsx';

/**
 * Joins class names. Components put their own classes first and the caller's last; conflicting
 * utilities are avoided by design rather than merged at runtime, which keeps tailwind-merge out
 * of the public pages' JavaScript.
 */
export const cn = (...inputs: ClassValue[]) => clsx(inputs);
