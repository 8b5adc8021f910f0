"""Buttons and modals of the Discord front end, with stable custom ids."""
