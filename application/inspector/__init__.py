"""The Inspector's logic, without Textual: where a call is read from (``call_reader``), its
findings and actions, and other platforms' calls in its order (``foreign``).
"""
