"""The command layer: argument parsing, printing and exit codes, one module per command.

It is the only code that wires io, vision, play and flood together; nothing
below it imports it. Heavy libraries (opencv, mss, pyautogui) are imported
inside the command functions, so `msolver solve` never pays for, or fails on,
a screen library.
"""
