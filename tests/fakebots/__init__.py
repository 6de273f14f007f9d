"""Fake bots for the referee's tests (each script here is a bot), and helpers to find them."""
