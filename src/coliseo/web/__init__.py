"""The web table: FastAPI app, WebSocket seats and the static pages (`coliseo serve`)."""
