"""Pure rules: standard library (and simpleeval) only. No pygame, serial, cv2 or sqlite."""
