"""The GitHub Action: the event read, the change judged, the verdict
published as a check run and one sticky comment."""
