# The bot as an installed package (not editable): the image holds the wheel's files only, and
# /app/data holds nothing but the ledger, so a volume there never hides or keeps stale code.
FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engine ./engine
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/app/data/holdem.sqlite3
# Fonts for the images: Chinese (and Cyrillic) names and labels, then symbols and emoji
# (bot/render/fonts.py looks for them; without them those characters would be boxes).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-wqy-microhei \
        fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir "$(ls /wheels/*.whl)[postgres]" && rm -rf /wheels \
    && useradd --create-home --uid 10001 holdem \
    && mkdir -p /app/data && chown holdem:holdem /app/data
WORKDIR /app
USER holdem
VOLUME ["/app/data"]
CMD ["holdem"]
