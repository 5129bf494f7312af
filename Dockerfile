# The app in one container: python:3.11-slim, the pinned runtime requirements only, a non-root user,
# a health check on Streamlit's own /_stcore/health. One container = one server process; to serve
# more people run more containers behind a load balancer with sticky sessions (docs/deploy.md).
#
#   docker build -t latency-app .
#   docker run --rm -p 8501:8501 latency-app        # then open http://localhost:8501
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    # production only (the file watcher reruns on code edits; a container's code never changes)
    STREAMLIT_SERVER_FILE_WATCHER_TYPE=none

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt

RUN useradd --create-home --uid 10001 app
# Code and content are owned by root and read-only to the app user: a bug cannot rewrite them.
COPY app.py ./
COPY .streamlit/ .streamlit/
COPY latency/ latency/
COPY ui/ ui/
COPY pages/ pages/
COPY content/ content/
COPY static/ static/
COPY assets/ assets/
USER app

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD python -c "import urllib.request, sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).status == 200 else 1)"

CMD ["streamlit", "run", "app.py", "--server.address", "0.0.0.0", "--server.port", "8501"]
