"""Planechase (SPEC section 1, PC-1..PC-14; Comprehensive Rules 901, 309, 310, 701.22).

The format's rules in one folder: its state (``state``), commands (``commands``), events
(``events``) and play (``play``: set-up, decide, apply and describe of each event, and its
``RULES`` value).  Importing the package imports none of them."""
