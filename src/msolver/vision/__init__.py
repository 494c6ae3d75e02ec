"""Pixels to boards: find the grid, keep profiles, read cells. Knows no mouse, no capture.

Public API (see each module): `profile.Profile`, `profile.load_profile`,
`profile.save_profile`, `profile.list_profiles`, `profile.delete_profile`,
`grid.calibrate` (raises `grid.CalibrationError`), `classify.read_board`
(returns `classify.ReadResult`, raises `classify.ReadError`),
`classify.board_visible`. Images are RGB (H, W, 3), or BGRA (H, W, 4) as mss
grabs them.
"""
