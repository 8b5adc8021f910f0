FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/app/data/holdem.sqlite3

RUN useradd --create-home --uid 10001 holdem
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir -e . && chown -R holdem:holdem /app/data

USER holdem
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
