{{/*
What the in-chart Postgres and Redis share: a headless Service, and a StatefulSet whose pod runs the
official image as its own user (uid 999 in both) on a read-only root filesystem.
*/}}

{{/* Call: (list $ "postgresql" 5432) */}}
{{- define "switchboard.store.service" -}}
{{- $root := index . 0 }}
{{- $store := index . 1 }}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "switchboard.componentName" (list $root $store) }}
  labels:
    {{- include "switchboard.componentLabels" (list $root $store) | nindent 4 }}
spec:
  clusterIP: None
  selector:
    {{- include "switchboard.componentSelectorLabels" (list $root $store) | nindent 4 }}
  ports:
    - name: {{ $store }}
      port: {{ index . 2 }}
      targetPort: {{ $store }}
{{- end }}

{{- define "switchboard.store.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 999
runAsGroup: 999
fsGroup: 999
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "switchboard.store.securityContext" -}}
runAsNonRoot: true
runAsUser: 999
runAsGroup: 999
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Call: (list $ "postgresql") */}}
{{- define "switchboard.store.volumeClaimTemplates" -}}
{{- $root := index . 0 }}
{{- $persistence := (index $root.Values (index . 1)).persistence }}
- metadata:
    name: data
  spec:
    accessModes: [ReadWriteOnce]
    {{- with $persistence.storageClass }}
    storageClassName: {{ . }}
    {{- end }}
    resources:
      requests:
        storage: {{ $persistence.size }}
{{- end }}
