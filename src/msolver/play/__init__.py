"""The live player: capture -> read -> solve -> act, with the safety checks around it.

Only this package (and `msolver.cli`) wires core, vision and io together.
"""
