// /apiApply (no side bar): apply for access to the LanguageTool-compatible API. An operator reviews it; once
// approved the user creates an API key in the personal center.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Field, Textarea } from '@chakra-ui/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { userInfoQuery } from '../../../api/queries';
import { ApplyShell, EMAIL, PHONE, TextField } from './ApplyShell';

export default function ApiApply() {
  const { t } = useLingui();
  const me = useQuery(userInfoQuery({ silent: true }));
  const [form, setForm] = useState({ name: '', phone: '', company: '', email: '', usage: '' });
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const phone = form.phone || me.data?.phone || '';
  const email = form.email.trim();
  const submit = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/crm/component/app/add_one_checkno', {
          body: {
            name: form.name.trim(),
            phone,
            source: 'apiApply',
            ...(form.company.trim() ? { company: form.company.trim() } : {}),
            ...(email ? { email } : {}),
            ...(form.usage.trim() ? { usage: form.usage.trim() } : {}),
          },
        }),
        { silent: true },
      ),
  });
  const valid = form.name.trim().length >= 1 && PHONE.test(phone) && (!email || EMAIL.test(email));
  return (
    <ApplyShell
      testId="api-apply"
      title={<Trans>申请 API 接入</Trans>}
      intro={
        <Trans>API 与 LanguageTool 的接口兼容，可接入编辑器、内容管理系统和写作工具。提交后我们会与您联系。</Trans>
      }
      done={submit.isSuccess ? <Trans>申请已提交，我们会尽快与您联系。</Trans> : null}
      error={submit.error}
      valid={valid}
      busy={submit.isPending}
      onSubmit={() => submit.mutate()}
    >
      <TextField
        label={<Trans>联系人</Trans>}
        required
        value={form.name}
        onChange={set('name')}
        maxLength={50}
        testId="api-apply-name"
      />
      <TextField
        label={<Trans>联系电话</Trans>}
        required
        invalid={!!phone && !PHONE.test(phone)}
        value={phone}
        onChange={set('phone')}
        maxLength={11}
        inputMode="tel"
      />
      <TextField label={<Trans>单位</Trans>} value={form.company} onChange={set('company')} maxLength={100} />
      <TextField
        label={<Trans>邮箱</Trans>}
        invalid={!!email && !EMAIL.test(email)}
        value={form.email}
        onChange={set('email')}
        maxLength={100}
        type="email"
      />
      <Field.Root>
        <Field.Label>
          <Trans>用途</Trans>
        </Field.Label>
        <Textarea
          value={form.usage}
          onChange={(e) => set('usage')(e.target.value)}
          maxLength={1000}
          rows={3}
          placeholder={t`例如：在内容管理系统中发稿前自动校对`}
        />
      </Field.Root>
    </ApplyShell>
  );
}
