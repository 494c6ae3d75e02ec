"""The outside world (screen, mouse, keyboard) behind small interfaces, each with a fake.

Backends import their libraries (mss, pyautogui, pynput) lazily, inside the
constructor, so importing this package never needs a display.
"""
