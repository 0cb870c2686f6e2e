/** Page sizes of DESIGN.md "Bounds": cidr/expand pages 256 by default, at most 4096. */
export const EXPAND_DEFAULT_LIMIT = 256
export const EXPAND_MAX_LIMIT = 4096
