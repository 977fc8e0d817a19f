/** Every stub view mount, in order, as "view:id". */
export const mounts: string[] = [];

/** Every stub view module loaded, in order (a module loads once per test file). */
export const loaded: string[] = [];
