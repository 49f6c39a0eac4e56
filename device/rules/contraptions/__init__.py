"""Contraptions (SPEC section 2): the Unstable rules CT-1..CT-6 and house variants A, B and C.

The format's rules in one folder: its state (``state``), commands (``commands``), events
(``events``) and play (``play``: set-up, decide, apply and describe of each event, and its
``RULES`` value).  Importing the package imports none of them."""
