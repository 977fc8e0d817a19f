/** Every stub view mount, in order, as "view:id". */
export const mounts: string[] = [];
