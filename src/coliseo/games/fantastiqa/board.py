"""The Fantastiqa board (rules R2): six Region positions, seven Creature spaces, two Open Quest slots."""

POSITIONS = ("TL", "TR", "ML", "MR", "BL", "BR")
POSITION_INDEX = {p: i for i, p in enumerate(POSITIONS)}
TL, TR, ML, MR, BL, BR = range(6)

# Space number (1..7, fill order) -> the two positions it joins.
SPACE_ENDS = {1: (TL, TR), 2: (TR, MR), 3: (MR, BR), 4: (BR, BL), 5: (BL, ML), 6: (ML, TL), 7: (ML, MR)}
SPACES = tuple(SPACE_ENDS)

# Position -> ((space, position beyond it), ...) in space order.
ADJACENT = {p: tuple((s, b if a == p else a) for s, (a, b) in SPACE_ENDS.items() if p in (a, b))
            for p in range(6)}


def beyond(space: int, position: int) -> int:
    """The position across `space` from `position` (which must touch it)."""
    a, b = SPACE_ENDS[space]
    return b if a == position else a
