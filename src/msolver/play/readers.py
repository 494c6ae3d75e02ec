"""The reader the player uses for a profile: the classifier, with a learner on top."""

from __future__ import annotations

from msolver.core.clock import Clock
from msolver.vision.learning_reader import LearningReader
from msolver.vision.profile import Profile
from msolver.vision.reader import VisionReader


def reader_for(profile: Profile, clock: Clock | None = None) -> LearningReader:
    """A reader that learns the tiles it has not seen: from the unopened tile alone for a
    new theme, on top of the classifier for a known one (whose recordings may lack a 6).
    `clock`: what it times a frame's stillness by (a replay's own, not the wall's)."""
    if profile.theme == "custom" or "1" not in profile.tiles:
        return LearningReader(profile, clock=clock)
    return LearningReader(profile, base=VisionReader(profile), clock=clock)
